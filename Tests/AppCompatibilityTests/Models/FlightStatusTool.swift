// A tool from a travel app: the model reads a flight's live status instead
// of guessing it.

import FoundationModels

struct FlightStatusTool: Tool {
    let name = "flightStatus"
    let description = "Looks up the live status of a flight by its flight number."

    @Generable
    struct Arguments: Sendable, Equatable {
        @Guide(description: "The flight number: two capital letters and one to four digits", /[A-Z]{2}[0-9]{1,4}/)
        var flightNumber: String
    }

    /// The board the tool reads; a flight not on it is reported as unknown.
    let board: [String: String]

    func call(arguments: Arguments) async throws -> String {
        guard let status = board[arguments.flightNumber] else {
            return "No flight \(arguments.flightNumber) on today's board."
        }
        return "Flight \(arguments.flightNumber): \(status)"
    }

    static let sample = FlightStatusTool(board: [
        "LH454": "on time, gate B7, departs 14:05",
        "BA117": "delayed 40 minutes, gate A2",
    ])
}
