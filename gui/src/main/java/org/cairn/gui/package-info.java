/** The donor tray app (built by the Faces issue). */
package org.cairn.gui;
