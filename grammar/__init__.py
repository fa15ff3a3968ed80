"""The grammar of gradcli\x27s language, shipped inside the package as gradcli.grammar."""
