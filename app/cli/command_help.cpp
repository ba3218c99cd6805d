#include "command_help.h"

#include "command_table.h"

#include <algorithm>
#include <set>

namespace schedlab::cli {

namespace {

std::string firstWord(const std::string& name) { return name.substr(0, name.find(' ')); }

std::string optionText(const OptionSpec& o) { return "--" + o.name + (o.isFlag() ? "" : " " + o.value); }

// An entry's usage, then its options one a line with their help, aligned.
void printEntry(const CommandSpec& c)
{
    std::fputs(c.usage.c_str(), stdout);
    if (c.options.empty())
        return;
    std::size_t width = 0;
    for (const OptionSpec& o : c.options)
        width = std::max(width, std::min<std::size_t>(optionText(o).size(), 32));
    std::printf("    options:\n");
    for (const OptionSpec& o : c.options)
        std::printf("        %-*s  %s\n", int(width), optionText(o).c_str(), o.help.c_str());
}

// The commands' first words, in table order, once each.
std::vector<std::string> commandWords()
{
    std::vector<std::string> words;
    for (const CommandSpec& c : commandTable())
        if (std::find(words.begin(), words.end(), firstWord(c.name)) == words.end())
            words.push_back(firstWord(c.name));
    return words;
}

// "--help" and the options of the entries matching `match`, sorted, space-separated.
template <typename Match> std::string completionOptions(Match match)
{
    std::set<std::string> names = { "--help" };
    for (const CommandSpec& c : commandTable())
        if (match(c))
            for (const OptionSpec& o : c.options)
                names.insert("--" + o.name);
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : " ") + n;
    return out;
}

// The script's case arms: subcommands ("sweep plan") first, then each command.
void printCompletionCases()
{
    for (const CommandSpec& c : commandTable())
        if (c.name.find(' ') != std::string::npos)
            std::printf("        \"%s\") opts=\"%s\" ;;\n", c.name.c_str(),
                completionOptions([&](const CommandSpec& x) { return x.name == c.name; }).c_str());
    // A command's own entries (all its forms); a command of subcommands only: all of them.
    for (const std::string& w : commandWords()) {
        const bool own = findCommand(w) != nullptr;
        std::printf("        %s|%s\\ *) opts=\"%s\" ;;\n", w.c_str(), w.c_str(),
            completionOptions([&](const CommandSpec& x) { return own ? x.name == w : firstWord(x.name) == w; }).c_str());
    }
}

} // namespace

void printUsage(std::FILE* out)
{
    std::fputs(kUsageHeader, out);
    for (const CommandSpec& c : commandTable())
        std::fputs(c.usage.c_str(), out);
    std::fputs(kUsageFooter, out);
}

bool printCommandHelp(const std::vector<std::string>& words)
{
    if (words.empty())
        return false;
    const std::string sub = words.size() > 1 ? words[0] + " " + words[1] : std::string();
    const bool one = !sub.empty() && findCommand(sub);
    bool any = false;
    for (const CommandSpec& c : commandTable()) {
        if (one ? c.name != sub : firstWord(c.name) != words[0])
            continue;
        if (!any)
            std::printf("usage: schedlab-cli\n");
        printEntry(c);
        any = true;
    }
    return any;
}

// A bash completion script made from the command table, so it offers the commands and options
// this build accepts. Install: source it, or copy it to /etc/bash_completion.d/schedlab-cli.
int runCompletion(const std::vector<std::string>& args)
{
    if (args.size() != 1 || args[0] != "bash") {
        std::fprintf(stderr, "schedlab-cli: completion takes one shell: bash\n");
        return 2;
    }
    std::string all;
    for (const std::string& w : commandWords())
        all += (all.empty() ? "" : " ") + w;
    std::printf("# bash completion for schedlab-cli (made by schedlab-cli completion bash)\n"
                "_schedlab_cli() {\n"
                "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" opts=\"\" cmd=\"${COMP_WORDS[1]}\"\n"
                "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
                "        COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n"
                "        return\n"
                "    fi\n"
                "    [ \"$COMP_CWORD\" -gt 2 ] && cmd=\"${COMP_WORDS[1]} ${COMP_WORDS[2]}\"\n"
                "    case \"$cmd\" in\n",
        all.c_str());
    printCompletionCases();
    std::printf("    esac\n"
                "    if [[ \"$cur\" == -* ]]; then\n"
                "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
                "    else\n"
                "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                "    fi\n"
                "}\n"
                "complete -o filenames -F _schedlab_cli schedlab-cli\n");
    return 0;
}

} // namespace schedlab::cli
