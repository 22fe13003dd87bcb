/**
 * The {@code cairn} command line's entry point ({@link org.cairn.cli.Main}: hand the command to an agent or run it
 * here) and its root command ({@link org.cairn.cli.CairnCli}), which lists the commands in the packages below.
 */
package org.cairn.cli;
