#pragma once
/// The lifecycle of a fine-tune round in a project, written once for placement rounds
/// (workflow::runRound) and replica-policy rounds (workflow::runScalerRound):
///  1. begin(): the round's row is inserted as 'running' (its id names the checkpoint);
///  2. the round writes its checkpoint to partialCheckpoint() ("<out>.partial"), never the final name;
///  3. commit(): the file is renamed into place just before the row that names it commits; a kill in
///     between leaves a file no finished round names (`rounds` lists it as an orphan);
///  4. fail(): a failed or cancelled round is marked so, its partial checkpoint removed; the parent
///     round and its checkpoint are never touched.
/// Without a project only the checkpoint file is handled (steps 2-4 without rows).

#include "base/result.h"
#include "store/project.h"

#include <string>
#include <vector>

namespace schedlab::workflow {

/// What a finished round stores with its row.
struct RoundOutcome {
    std::string checkpointSha256;
    std::vector<store::CurvePoint> curve;
    std::vector<store::EvalValue> eval;
    double wallSeconds = 0;
    std::vector<store::ConstraintPoint> constraints;
    double startValidation = -1;
};

class RoundRecorder {
public:
    /// `project` may be null (not owned; must outlive the recorder). The checkpoint goes to
    /// `outCheckpoint`, or with a project and an empty one to "<checkpointDir>/round-<id>.slq".
    RoundRecorder(store::Project* project, std::string outCheckpoint, std::string checkpointDir);
    RoundRecorder(const RoundRecorder&) = delete;
    RoundRecorder& operator=(const RoundRecorder&) = delete;

    /// Checks that the checkpoint has a place and inserts the round's row as running.
    Status begin(const store::RoundInfo& info);
    /// The round's id in the project; -1 without a project (or before begin()).
    int64_t roundId() const { return m_roundId; }
    /// Where the finished round's checkpoint will be.
    const std::string& checkpoint() const { return m_checkpoint; }
    /// Where the round writes its checkpoint until commit().
    std::string partialCheckpoint() const { return m_checkpoint + ".partial"; }
    /// Renames the partial checkpoint into place and stores the outcome in the round's row; on an
    /// error the round is marked failed and no checkpoint stays behind.
    Status commit(const RoundOutcome& outcome);
    /// Marks the round failed (cancelled when `e` is a cancel) and removes the partial checkpoint;
    /// returns `e`.
    Error fail(const Error& e);

private:
    store::Project* m_project;
    std::string m_out, m_dir, m_checkpoint;
    int64_t m_roundId = -1;
};

} // namespace schedlab::workflow
