#include "round_recorder.h"

#include <cstdio>

namespace schedlab::workflow {

RoundRecorder::RoundRecorder(store::Project* project, std::string outCheckpoint, std::string checkpointDir)
    : m_project(project)
    , m_out(std::move(outCheckpoint))
    , m_dir(std::move(checkpointDir))
{
}

Status RoundRecorder::begin(const store::RoundInfo& info)
{
    if (m_out.empty() && (m_dir.empty() || !m_project))
        return makeError(ErrorCode::Invalid, "a round needs a checkpoint path (or a project and a checkpoint folder)");
    if (m_project) {
        auto id = m_project->beginRound(info);
        if (!id)
            return id.error();
        m_roundId = id.value();
    }
    m_checkpoint = !m_out.empty() ? m_out : m_dir + "/round-" + std::to_string(m_roundId) + ".slq";
    return {};
}

Error RoundRecorder::fail(const Error& e)
{
    if (!m_checkpoint.empty())
        std::remove(partialCheckpoint().c_str());
    if (m_project && m_roundId >= 0)
        (void)m_project->endRound(m_roundId, e.isCancelled() ? store::RunStatus::Cancelled : store::RunStatus::Failed, e.message);
    return e;
}

Status RoundRecorder::commit(const RoundOutcome& o)
{
    // The final name just before the row that points at it commits.
    if (std::rename(partialCheckpoint().c_str(), m_checkpoint.c_str()) != 0)
        return fail(makeError(ErrorCode::Io, "cannot rename the checkpoint into place", m_checkpoint));
    if (!m_project)
        return {};
    if (Status s = m_project->finishRound(
            m_roundId, m_checkpoint, o.checkpointSha256, o.curve, o.eval, o.wallSeconds, o.constraints, o.startValidation);
        !s) {
        std::remove(m_checkpoint.c_str());
        return fail(s.error());
    }
    return {};
}

} // namespace schedlab::workflow
