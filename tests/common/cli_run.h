#pragma once
// Runs schedlab-cli (SCHEDLAB_CLI, defined per test target) as a user would: exit code, stdout and
// stderr. Shared by the CLI tests.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace schedlab::test {

struct CliRun {
    int code = -1; ///< -1: crashed or timed out
    QByteArray out, err;
};

/// Runs the CLI with `args`; waits up to `timeoutMs`.
inline CliRun runCli(const QStringList& args, int timeoutMs = 300000,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCHEDLAB_CLI), args);
    p.waitForFinished(timeoutMs);
    return CliRun { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError() };
}

} // namespace schedlab::test
