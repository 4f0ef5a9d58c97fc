"""The browser table: the server, each seat's page as data, and the page's own
files."""
