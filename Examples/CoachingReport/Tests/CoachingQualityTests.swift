import FoundationModels
import Testing
import TestSupport
@testable import CoachingReport

/// The streamed report on the real default model (`make test` runs suites
/// named *QualityTests with it).
@Suite("Coaching report on the default model", .serialized, .tags(.defaultModel), .needs(.defaultModel))
struct CoachingQualityTests {
    @Test func theStreamedReportGrowsToAWholeReportAboutTheWeek() async throws {
        try #require(SystemLanguageModel.default.isAvailable, "no model: run `make setup` (FOUNDATION_MODELS_MODEL)")
        let coach = try WeeklyCoach()
        var sizes: [Int] = []
        var last: GeneratedContent?
        for try await snapshot in try coach.streamReport(for: .sample) {
            sizes.append(snapshot.rawContent.jsonString.count)
            last = snapshot.rawContent
        }
        // Many snapshots, each at least as much as the one before.
        #expect(sizes.count >= 10, "\(sizes.count) snapshots")
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 }, "\(sizes)")
        #expect(sizes.first! < sizes.last!)

        guard let last else {
            Issue.record("the stream ended without a snapshot")
            return
        }
        let report = try CoachingReport(last)
        #expect(!report.headline.isEmpty)
        #expect(report.strengths.count == 2 && report.focusAreas.count == 2 && report.nextWeek.count == 3)
        for observation in report.strengths + report.focusAreas {
            #expect(!observation.title.isEmpty && !observation.reason.isEmpty, "\(observation)")
        }
        for session in report.nextWeek {
            #expect(!session.workout.isEmpty, "\(session)")
        }
    }
}
