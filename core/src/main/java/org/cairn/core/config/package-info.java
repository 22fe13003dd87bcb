/** Parsing and validation helpers shared by the daemons' and the client's configuration. */
package org.cairn.core.config;
