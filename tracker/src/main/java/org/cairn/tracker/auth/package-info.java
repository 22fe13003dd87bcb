/**
 * Who may call what: roles, credentials stored hashed under the tracker's data directory, and the
 * route table ({@link org.cairn.tracker.auth.Access}).
 */
package org.cairn.tracker.auth;
