/** The {@code cairn} command line: one class per subcommand. */
package org.cairn.cli;
