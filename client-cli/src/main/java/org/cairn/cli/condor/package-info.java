/**
 * {@code cairn_plugin}: HTCondor's file-transfer plug-in for {@code cairn://} URLs (protocol version 2: {@code -classad},
 * {@code -infile F -outfile G [-upload]}) and the clean-up plug-in {@code condor_manifest} runs for a
 * {@code checkpoint_destination} ({@code -from URL -delete FILE -jobad AD}). The ClassAd subset it reads and writes
 * ({@link ClassAd}, {@link ClassAdParser}, {@link ClassAdWriter}), the URL layout ({@link CairnUrl}), and each file's
 * transfer as a {@code cairn store}/{@code fetch} command line handed to a running agent or run in this process
 * ({@link CommandRunner}). Until a command runs in this process it loads JDK classes only (as {@code cli/agent/wire}), so
 * the plug-in starts as fast as the thin client. docs/operations.md, "HTCondor".
 */
package org.cairn.cli.condor;
