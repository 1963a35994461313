package dev.fabrictwin.evaluation.clos;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@link ClosSetConverter#main} run by Maven, which has the test classpath at hand: skipped unless {@code clos.set}
 * is given. {@code ./mvnw -o -q -pl evaluation test -Dtest=ClosSetConversion -Dclos.set=SET -Dclos.out=DIR
 * [-Dclos.trim=SECONDS] [-Dclos.xz=true]} (docs in {@link CiscoClosSetsTest}).
 */
class ClosSetConversion {

    @Test
    @EnabledIfSystemProperty(named = "clos.set", matches = ".+")
    void shouldConvertTheSetNamedByClosSet() throws IOException {
        final String trim = System.getProperty("clos.trim", "");
        ClosSetConverter.ClosSet set = ClosSetConverter.read(Path.of(System.getProperty("clos.set")));
        if (!trim.isBlank()) {
            set = set.trimmed(Long.parseLong(trim) * 1000);
        }
        ClosSetConverter.write(set, Path.of(System.getProperty("clos.out", "target/clos")),
            Boolean.parseBoolean(System.getProperty("clos.xz", "false")));
    }
}
