/// A student's notes on one topic, with the key terms a card drawn from
/// them would use.
package struct NotesItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    package var topic: String
    package var notes: String
    /// The facts' key terms (a card whose answer uses one is grounded).
    package var keyTerms: [String]
}

/// Generates the notes corpus: topics written for this project, each a
/// list of facts with their key terms; a note takes four or five of its
/// topic's facts in a random order and writes them as dashes, stars,
/// numbered lines or one paragraph.
package enum NotesCorpus {
    package static let seed: UInt64 = 0x0A7E_5
    package static let size = 6

    struct Fact {
        var text: String
        var terms: [String]
    }

    static let topics: [(String, [Fact])] = [
        (
            "Photosynthesis",
            [
                Fact(text: "Photosynthesis takes place in the chloroplasts of plant cells.", terms: ["chloroplasts", "chloroplast"]),
                Fact(text: "Chlorophyll is the green pigment that absorbs light energy.", terms: ["chlorophyll"]),
                Fact(text: "Plants take in carbon dioxide and water and make glucose and oxygen.", terms: ["glucose", "oxygen", "carbon dioxide"]),
                Fact(text: "The light-dependent reactions happen in the thylakoid membranes.", terms: ["thylakoid"]),
                Fact(text: "The Calvin cycle fixes carbon dioxide into sugar in the stroma.", terms: ["Calvin cycle", "stroma"]),
            ]
        ),
        (
            "The water cycle",
            [
                Fact(text: "Evaporation turns water from oceans and lakes into water vapour.", terms: ["evaporation"]),
                Fact(text: "Condensation forms clouds when water vapour cools.", terms: ["condensation", "clouds"]),
                Fact(text: "Precipitation brings water back down as rain, snow, sleet or hail.", terms: ["precipitation", "rain"]),
                Fact(text: "Transpiration is water vapour that plants release through their leaves.", terms: ["transpiration"]),
                Fact(text: "Water that soaks into the soil becomes groundwater and fills aquifers.", terms: ["groundwater", "aquifers", "aquifer"]),
            ]
        ),
        (
            "TCP",
            [
                Fact(text: "TCP opens a connection with a three-way handshake: SYN, SYN-ACK, ACK.", terms: ["three-way handshake", "SYN"]),
                Fact(text: "Sequence numbers let the receiver put segments back in order.", terms: ["sequence numbers", "sequence number"]),
                Fact(
                    text: "A lost segment is retransmitted after a timeout or after duplicate ACKs.",
                    terms: ["retransmitted", "retransmission", "timeout"]),
                Fact(
                    text: "Flow control uses the receiver's advertised window so the sender does not overwhelm it.",
                    terms: ["window", "flow control"]),
                Fact(text: "Each side closes its half of the connection with a FIN segment.", terms: ["FIN"]),
            ]
        ),
        (
            "The French Revolution",
            [
                Fact(text: "The French Revolution began in 1789.", terms: ["1789"]),
                Fact(text: "Crowds stormed the Bastille on 14 July 1789.", terms: ["Bastille"]),
                Fact(
                    text: "In August 1789 the National Assembly adopted the Declaration of the Rights of Man and of the Citizen.",
                    terms: ["Declaration of the Rights of Man", "National Assembly"]),
                Fact(text: "King Louis XVI was executed in January 1793.", terms: ["Louis XVI", "1793"]),
                Fact(text: "The Reign of Terror, led by Robespierre, lasted from 1793 to 1794.", terms: ["Reign of Terror", "Robespierre"]),
                Fact(text: "Napoleon Bonaparte seized power in a coup in 1799.", terms: ["Napoleon", "1799"]),
            ]
        ),
        (
            "The cell",
            [
                Fact(
                    text: "Mitochondria make most of the cell's ATP through cellular respiration.",
                    terms: ["mitochondria", "ATP", "cellular respiration"]),
                Fact(text: "The nucleus holds the cell's DNA.", terms: ["nucleus", "DNA"]),
                Fact(text: "Ribosomes build proteins from amino acids.", terms: ["ribosomes", "ribosome", "proteins"]),
                Fact(text: "The cell membrane controls what enters and leaves the cell.", terms: ["cell membrane", "membrane"]),
                Fact(text: "Plant cells have a cell wall made of cellulose.", terms: ["cellulose", "cell wall"]),
            ]
        ),
        (
            "Plate tectonics",
            [
                Fact(text: "The lithosphere is broken into plates that move on the asthenosphere.", terms: ["lithosphere", "asthenosphere"]),
                Fact(text: "At divergent boundaries plates move apart, as at the Mid-Atlantic Ridge.", terms: ["divergent", "Mid-Atlantic Ridge"]),
                Fact(text: "At convergent boundaries one plate can sink beneath another: subduction.", terms: ["subduction", "convergent"]),
                Fact(
                    text: "At transform boundaries plates slide past each other, as along the San Andreas Fault.",
                    terms: ["transform", "San Andreas"]),
                Fact(text: "Alfred Wegener proposed continental drift in 1912.", terms: ["Wegener", "continental drift", "1912"]),
            ]
        ),
        (
            "Binary search",
            [
                Fact(text: "Binary search only works on a sorted list.", terms: ["sorted"]),
                Fact(text: "Each step compares the target with the middle element.", terms: ["middle element", "middle"]),
                Fact(text: "Every step discards half of the remaining elements.", terms: ["half"]),
                Fact(text: "Its running time is O(log n).", terms: ["O(log n)", "log n", "logarithmic"]),
                Fact(text: "When the range becomes empty, the target is not in the list.", terms: ["empty", "not in the list"]),
            ]
        ),
    ]

    package static func generate(seed: UInt64 = seed) -> [NotesItem] {
        var random = CorpusRandom(seed: seed)
        let chosen = random.sample(Array(topics.indices), count: size)
        return chosen.enumerated().map { number, index in
            let (topic, facts) = topics[index]
            let picked = random.sample(facts, count: min(facts.count, random.int(in: 4...5)))
            let lines = picked.map(\.text)
            let notes: String
            switch random.below(4) {
            case 0: notes = lines.map { "- " + $0 }.joined(separator: "\n")
            case 1: notes = lines.map { "* " + $0 }.joined(separator: "\n")
            case 2: notes = lines.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
            default: notes = lines.joined(separator: " ")
            }
            return NotesItem(
                id: "notes-\(number + 1 < 10 ? "0" : "")\(number + 1)",
                topic: topic,
                notes: notes,
                keyTerms: picked.flatMap(\.terms)
            )
        }
    }
}
