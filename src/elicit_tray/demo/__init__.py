"""A demo MCP server whose tools elicit like the specification's examples."""
