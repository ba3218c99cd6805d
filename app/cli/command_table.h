#pragma once
// The commands of schedlab-cli, one table: each entry's name, usage text, accepted options (with a
// line of help each) and handler. `schedlab-cli --help`, `schedlab-cli CMD --help`, the bash
// completion, the dispatch in main.cpp and each handler's Args::parse all read it.

#include "option_spec.h"

#include <string>
#include <vector>

namespace schedlab::cli {

/// A command's handler: takes the arguments after the command's name, returns the exit code
/// (0 success, 1 failure with a message on stderr, 2 usage error).
using CommandHandler = int (*)(const std::vector<std::string>& args);

/// One command of the table. `name` is the words that select it ("replay", "sweep plan");
/// `form` tells apart entries of one name that another handler reaches ("train" with
/// "--mode autoscale": runTrain hands over to trainAutoscale) and is empty for the one main()
/// dispatches to.
struct CommandSpec {
    std::string name;
    std::string form;
    /// Its usage entry as `schedlab-cli --help` lists it: lines starting "  name ...", then
    /// continuation lines indented further. Ends with a newline.
    std::string usage;
    std::vector<OptionSpec> options;
    CommandHandler handler = nullptr;
};

/// Every command, in the order of `schedlab-cli --help`.
const std::vector<CommandSpec>& commandTable();
/// The entry called `name` with `form` (empty: the dispatched one); nullptr when there is none.
const CommandSpec* findCommand(const std::string& name, const std::string& form = {});
/// The options of that entry, for Args::parse (empty when there is no such entry).
const std::vector<OptionSpec>& commandOptions(const std::string& name, const std::string& form = {});

/// `schedlab-cli --help`: the text before and after the commands' usage entries.
extern const char* const kUsageHeader;
extern const char* const kUsageFooter;

} // namespace schedlab::cli
