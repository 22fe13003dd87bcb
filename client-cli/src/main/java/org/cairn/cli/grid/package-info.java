/** A grid on this machine: {@code cairn grid up|down}, {@code cairn demo}, and the heartbeat load command. */
package org.cairn.cli.grid;
