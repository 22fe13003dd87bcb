/** The data plane's binary protocol: length-prefixed frames with a hard size limit, and their Netty codecs. */
package org.cairn.core.protocol;
