/**
 * A real cluster's own sources read into the twin's documents: {@code jobs} (SLURM, Kubernetes → {@code fabric.jobs}
 * documents). Pure: parsers take text and return documents; the CLI does the IO and the publishing.
 */
package dev.fabrictwin.cluster;
