/**
 * {@code cairn criu launch|dump|restore}: Linux process trees checkpointed by CRIU, each dump (the image directory) one
 * directory version on the grid, committed only when CRIU reports success; restored detached from a fetched version.
 */
package org.cairn.cli.criu;
