package dev.fabrictwin.twin.fuzz;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The long fuzz mode: {@code -Dfuzz.tries=N} runs every property of a class carrying
 * {@code @AddLifecycleHook(FuzzTries.class)} with N tries instead of its moderate default, so the build stays
 * fast and a soak run needs no code change (docs/development.md, Fuzzing).
 */
public final class FuzzTries implements AroundPropertyHook {

    public static final String PROPERTY = "fuzz.tries";

    @Override
    public PropertyExecutionResult aroundProperty(final PropertyLifecycleContext context, final PropertyExecutor property) {
        final Integer tries = Integer.getInteger(PROPERTY);
        if (tries != null && context.attributes().tries().orElse(2) > 1) { // an @Example stays one try
            context.attributes().setTries(tries);
        }
        return property.execute();
    }

    /** Put on a class, it reaches every property in it (and in nested classes and subclasses). */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    /** Before jqwik reads the attributes: an outer hook. */
    @Override
    public int aroundPropertyProximity() {
        return -100;
    }
}
