// schedlab-cli: the headless entry point over the core library. The commands are a table
// (command_table.h); this file picks the entry and hands over.

#include "command_help.h"
#include "command_table.h"
#include "commands.h"

#include "base/process_tuning.h"

#include <QCoreApplication>

#include <cstdio>
#include <string>
#include <vector>

namespace {
using namespace schedlab::cli;

// The subcommands of `command` ("plan, run, ..." for sweep), when its entries are only those.
std::vector<std::string> subcommandsOf(const std::string& command)
{
    std::vector<std::string> subs;
    for (const CommandSpec& c : commandTable())
        if (c.form.empty() && c.name.rfind(command + " ", 0) == 0)
            subs.push_back(c.name.substr(command.size() + 1));
    return subs;
}

std::string joined(const std::vector<std::string>& words, const char* last)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
    return out;
}

// `words` is the command line after the program name: the command, then its arguments.
int runCommandLine(const std::vector<std::string>& words)
{
    const std::string& command = words[0];
    for (std::size_t i = 1; i < words.size(); ++i)
        if (words[i] == "--help" || words[i] == "-h") {
            if (!printCommandHelp(words))
                break; // unknown command: said below
            return 0;
        }
    if (words.size() > 1)
        if (const CommandSpec* c = findCommand(command + " " + words[1]))
            return c->handler(std::vector<std::string>(words.begin() + 2, words.end()));
    if (const CommandSpec* c = findCommand(command))
        return c->handler(std::vector<std::string>(words.begin() + 1, words.end()));
    if (const std::vector<std::string> subs = subcommandsOf(command); !subs.empty()) {
        if (words.size() < 2)
            return fail(command + ": " + joined(subs, " or ") + " (schedlab-cli " + command + " --help)", 2);
        return fail(command + ": unknown subcommand '" + words[1] + "' (" + joined(subs, ", ") + ")", 2);
    }
    std::fprintf(stderr, "schedlab-cli: unknown command '%s'\n\n", command.c_str());
    printUsage(stderr);
    return 2;
}
} // namespace

int main(int argc, char** argv)
{
    // Huge pages for malloc pay on large inputs and long work; small commands keep their 20 ms start.
    {
        const std::string c = argc > 1 ? argv[1] : "";
        if (c == "bench" || c == "generate" || c == "train" || c == "eval"
            || (argc > 2 && schedlab::inputBytes(argv + 2, 32ll << 20) >= (32ll << 20)))
            schedlab::enableMallocHugePages(argv); // may re-execute once; before any thread starts
    }
    QCoreApplication app(argc, argv); // Qt Core only: JSON output and future project database
    QCoreApplication::setApplicationName("schedlab-cli");
    const std::string first = argc > 1 ? argv[1] : "";
    if (argc < 2 || first == "--help" || first == "-h" || first == "help") {
        printUsage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    return runCommandLine(std::vector<std::string>(argv + 1, argv + argc));
}
