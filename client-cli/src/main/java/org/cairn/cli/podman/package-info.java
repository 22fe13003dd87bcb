/**
 * {@code cairn podman checkpoint|restore}: Podman containers checkpointed by CRIU through Podman, each checkpoint export
 * (the tar {@code podman container checkpoint --export} writes) one file version on the grid, committed only when Podman
 * exits 0; restored with {@code podman container restore --import} from a fetched version.
 */
package org.cairn.cli.podman;
