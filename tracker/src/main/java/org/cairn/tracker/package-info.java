/** The tracker daemon's entry points and composition roots (cairn-tracker.jar): a lone tracker, its commands. */
package org.cairn.tracker;
