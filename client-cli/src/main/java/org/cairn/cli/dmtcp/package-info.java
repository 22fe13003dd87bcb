/** {@code cairn dmtcp launch|restart}: a DMTCP job whose checkpoints are stored on the grid as they are written. */
package org.cairn.cli.dmtcp;
