/**
 * A real cluster's own sources read into the twin's documents: {@code topology} (LLDP neighbour tables, InfiniBand
 * {@code ibnetdiscover}, a links CSV → the {@code fabric.topology} document) and {@code jobs} (SLURM, Kubernetes →
 * {@code fabric.jobs} documents). Pure: parsers take text and return documents; the CLI does the IO and the publishing.
 */
package dev.fabrictwin.cluster;
