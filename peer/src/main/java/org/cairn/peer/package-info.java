/** The donor peer daemon: fragment store, data server, load monitor (built by the Overlay issue). */
package org.cairn.peer;
