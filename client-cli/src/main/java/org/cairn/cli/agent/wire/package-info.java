/** The agent's wire and what the thin client needs: JDK classes only, so a thin {@code cairn} process starts without Netty, Jackson or picocli. */
package org.cairn.cli.agent.wire;
