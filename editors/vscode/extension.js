// Starts the language server of engine-dsl packs (`engine lsp`, over stdio) for .rules files
// and for the record and translation files (YAML) of a pack, and stops it with the editor.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("engineRules");
  const [command, ...args] = settings.get("server.command", ["engine", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  const documentSelector = [{ scheme: "file", language: "engine-rules" }];
  if (settings.get("recordFiles", true)) {
    documentSelector.push({ scheme: "file", language: "yaml" });
  }
  client = new LanguageClient("engineRules", "Engine rules packs", server, {
    documentSelector,
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
