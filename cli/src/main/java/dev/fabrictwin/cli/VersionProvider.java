package dev.fabrictwin.cli;

import org.apache.kafka.common.utils.AppInfoParser;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: our version (from the jar manifest) and the Kafka release it bundles. */
final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        final String ours = FabricTwin.class.getPackage().getImplementationVersion();
        return new String[] {
            "fabric-twin " + (ours == null ? "(development build)" : ours),
            "Kafka " + AppInfoParser.getVersion() + ", Java " + Runtime.version(),
        };
    }
}
