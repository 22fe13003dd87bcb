/** What every command runs with: the root options it reads ({@link org.cairn.cli.context.Root}), where it runs ({@link org.cairn.cli.context.Session}), which grid it opens and the agent's pool of them ({@link org.cairn.cli.context.GridAccess}, {@link org.cairn.cli.context.GridPool}), its config file, and the app, node and step it names. */
package org.cairn.cli.context;
