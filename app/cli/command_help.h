#pragma once
// Help and completion made from the command table (command_table.h): the full usage, one
// command's usage with its options, and the bash completion script.

#include <cstdio>
#include <string>
#include <vector>

namespace schedlab::cli {

/// `schedlab-cli --help`: the header, every command's usage entry, the footer.
void printUsage(std::FILE* out);
/// `schedlab-cli CMD [SUB] --help`: the entries of `words[0]` (only `words[0] words[1]` when that
/// names a subcommand), each with its options and their help lines. False when CMD is no command.
bool printCommandHelp(const std::vector<std::string>& words);
/// `schedlab-cli completion bash`: prints the completion script; exit code.
int runCompletion(const std::vector<std::string>& args);

} // namespace schedlab::cli
