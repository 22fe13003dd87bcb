/** The grid token: reading it safely, comparing it in constant time, and the HMAC challenge of the data plane. */
package org.cairn.core.security;
