/**
 * {@code cairn mount} (stdchk §III-IV): one app's checkpoints as a FUSE file system.
 * {@code MOUNT/NODE/} lists the node's versions by step and {@code latest}; a file written there is
 * streamed through the store pipeline and becomes a version when it is closed (session semantics);
 * a directory written under {@code MOUNT/NODE/.new-STEP/} becomes one directory version when it is
 * renamed to {@code STEP}. The file system reaches the grid only through {@link org.cairn.client.mount.MountGrid}.
 */
package org.cairn.client.mount;
