/** The stored fragment: a self-describing header with checksums, then the coded bytes. */
package org.cairn.core.fragment;
