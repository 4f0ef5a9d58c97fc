// The Rulebook language server for VS Code: starts `rulebook lsp` for YAML files.
// The server checks only rulesets (a `rulebook:` line) and scenario files; the YAML
// extension (redhat.vscode-yaml) keeps giving the schema's help beside it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

exports.activate = function () {
  const [command, ...args] = vscode.workspace.getConfiguration("rulebook").get("command");
  client = new LanguageClient("rulebook", "Rulebook",
    { command, args: [...args, "lsp"] },
    { documentSelector: [{ scheme: "file", language: "yaml" }] });
  return client.start();
};

exports.deactivate = function () {
  return client ? client.stop() : undefined;
};
