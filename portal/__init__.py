"""The pages and services that compose several apps: the home page, the staff desk's
home and its URLs, everything held about a player, and the merge of duplicate player
records. It sits above every other app (docs/architecture.md): it may read and write
any of them, and none imports it."""
