/// An answer that did not finish within its time limit.
package struct TimeLimitExceeded: Error, CustomStringConvertible {
    package var seconds: Double
    package var description: String { "no answer within \(Scoring.number(seconds)) s" }
}

/// Runs `body`, cancelling it when it has not finished after `seconds`
/// (then throws ``TimeLimitExceeded``, once `body` has stopped).
///
/// The eval's guard against a runaway answer: options are left as an app
/// leaves them (no `maximumResponseTokens`), so one looping string must not
/// stall the run; the answer counts as a failure instead. Cancelling the
/// caller cancels `body` too.
package func withTimeLimit<Result: Sendable>(
    _ seconds: Double,
    _ body: sending @escaping () async throws -> Result
) async throws -> Result {
    let work = Task(operation: body)
    let timer = Task { () -> Bool in
        do {
            try await Task.sleep(for: .seconds(seconds))
        } catch {
            return false
        }
        work.cancel()
        return true
    }
    do {
        let result = try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
        timer.cancel()
        return result
    } catch {
        timer.cancel()
        if await timer.value { throw TimeLimitExceeded(seconds: seconds) }
        throw error
    }
}
