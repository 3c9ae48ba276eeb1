import Foundation
import FoundationModels
import Testing
import TicketTriage

@testable import FoundationModelsEval

/// The generators: deterministic, in step with the committed files, and
/// making items whose ground truth holds.
@Suite("Eval corpora")
struct CorpusTests {
    static let committed = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("eval/corpora")

    @Test(arguments: Corpus.files)
    func committedFileIsTheGeneratorsOutput(_ corpus: Corpus) throws {
        let file = try Data(contentsOf: Self.committed.appendingPathComponent(corpus.fileName))
        let generated = try CorpusFiles.encode(corpus)
        #expect(file == generated, "eval/corpora/\(corpus.fileName) differs from its generator: run `fm eval generate` and commit the result")
        #expect(try CorpusFiles.encode(corpus) == generated, "two generations differ")
    }

    @Test func aDifferentSeedGivesDifferentReceipts() {
        #expect(ReceiptCorpus.generate(seed: 1) != ReceiptCorpus.generate(seed: 2))
        #expect(ReceiptCorpus.generate(seed: 1) == ReceiptCorpus.generate(seed: 1))
    }

    @Test func receiptTotalsAreVolumeTimesPrice() {
        for receipt in ReceiptCorpus.generate() {
            let truth = receipt.truth
            // The total is rounded to the cent; a prepaid total's volume is
            // rounded to its printed decimals (at most half a hundredth).
            let bound = 0.005 + 0.005 * truth.pricePerUnit + 1e-9
            #expect(abs(truth.volume * truth.pricePerUnit - truth.totalAmount) <= bound, "\(receipt.id): \(truth)")
        }
    }

    @Test func receiptValuesAndBrandArePrintedOnTheRows() {
        for receipt in ReceiptCorpus.generate() {
            let text = receipt.rows.joined(separator: "\n")
            let comma = receipt.features.contains("decimal-comma")
            func printed(_ value: Double, decimals: [Int]) -> Bool {
                decimals.contains { places in
                    let units = Int((value * Double(FixedPoint.power(places))).rounded())
                    return text.contains(FixedPoint(units: units, decimals: places).text(comma: comma))
                }
            }
            #expect(printed(receipt.truth.totalAmount, decimals: [2]), "\(receipt.id) total")
            #expect(printed(receipt.truth.volume, decimals: [2, 3]), "\(receipt.id) volume")
            #expect(printed(receipt.truth.pricePerUnit, decimals: [3]), "\(receipt.id) price")
            #expect(Scoring.normalized(text).contains(Scoring.normalized(receipt.truth.stationBrand)), "\(receipt.id) brand")
        }
    }

    @Test func receiptsCoverTheVariety() {
        let receipts = ReceiptCorpus.generate()
        #expect(receipts.count == ReceiptCorpus.size)
        #expect(Set(receipts.map(\.truth.stationBrand)).count >= 10)
        #expect(Set(receipts.map(\.truth.volumeUnit)) == ["L", "gal"])
        var features: [String: Int] = [:]
        for receipt in receipts { for feature in receipt.features { features[feature, default: 0] += 1 } }
        for feature in [
            "gallons", "decimal-comma", "prepay", "cash-tendered", "combined-row", "price-first", "total-first", "operator-name", "ocr-noise",
            "injection",
        ] {
            #expect(features[feature, default: 0] >= 2, "only \(features[feature, default: 0]) receipts with \(feature)")
        }
        let labels = Set(ReceiptCorpus.places.flatMap(\.totalLabels))
        let used = labels.filter { label in receipts.contains { $0.rows.contains { $0.hasPrefix(label + " ") } } }
        #expect(used.count >= 5, "total labels used: \(used)")
        // Every receipt carries numbers that are none of its values: the decoys.
        for receipt in receipts {
            let numbers = receipt.rows.joined(separator: " ").split(whereSeparator: { !($0.isNumber || $0 == "." || $0 == ",") })
                .compactMap { Double($0.replacingOccurrences(of: ",", with: ".")) }
            let truth = [receipt.truth.totalAmount, receipt.truth.volume, receipt.truth.pricePerUnit]
            #expect(numbers.filter { number in !truth.contains { abs($0 - number) < 1e-9 } }.count >= 3, "\(receipt.id) has few decoys")
        }
    }

    @Test func ocrNoiseLeavesNumbersAlone() {
        var random = CorpusRandom(seed: 7)
        let rows = ["TOTAL $45.00", "VOLUME 42.18 L", "42,180 l x 1,759 €/l", "PUMP 04", "AMOUNT DUE 71.45 EUR", "Preis/l 1,789 EUR"]
        var changed = 0
        for _ in 0..<600 {
            let row = random.pick(rows)
            let garbled = ReceiptCorpus.garble(row, &random)
            if garbled != row { changed += 1 }
            // Every number of the row is still there, whole, with its own
            // neighbours (no digit or separator glued to it).
            for number in row.split(separator: " ").filter({ $0.first?.isNumber == true || $0.first == "$" }) {
                let pattern = "(^|[^0-9.,])" + NSRegularExpression.escapedPattern(for: String(number)) + "($|[^0-9.,])"
                #expect(garbled.range(of: pattern, options: .regularExpression) != nil, "\(row) → \(garbled)")
            }
        }
        #expect(changed > 400)
    }

    @Test func ticketsHaveConsistentExpectations() {
        let tickets = TicketCorpus.generate()
        #expect(tickets.count == TicketCorpus.size)
        #expect(Set(tickets.map(\.category)).count == tickets.count)
        let queues = Set(Queue.allCases.map(\.rawValue)), priorities = Set(Priority.allCases.map(\.rawValue))
        for ticket in tickets {
            let expected = ticket.expected
            #expect(!expected.queues.isEmpty && Set(expected.queues).isSubset(of: queues), "\(ticket.id)")
            #expect(!expected.priorities.isEmpty && Set(expected.priorities).isSubset(of: priorities), "\(ticket.id)")
            #expect(!ticket.body.contains("{") && !ticket.subject.contains("{"), "\(ticket.id) has an unfilled placeholder")
        }
        // Every queue and priority of the example is some ticket's only right answer.
        #expect(Set(tickets.compactMap { $0.expected.queues.count == 1 ? $0.expected.queues[0] : nil }) == queues)
        #expect(Set(tickets.compactMap { $0.expected.priorities.count == 1 ? $0.expected.priorities[0] : nil }) == priorities)
    }

    @Test func variantsOfACorpusShareItsFile() {
        #expect(Corpus.receiptsGuideExamples.fileName == Corpus.receipts.fileName)
        #expect(Corpus.receiptsDocumented.fileName == Corpus.receipts.fileName && !Corpus.text.contains(.receiptsDocumented))
        #expect(Corpus.files == [.receipts, .tickets, .flashcards, .crates, .albums, .recommendations, .coaching, .jsonObject])
        #expect(Corpus.text.contains(.coaching) && Corpus.text.contains(.jsonObject), "fm eval all (make eval) answers the new corpora")
        #expect(Corpus.receiptsPhotoLight.fileName == Corpus.receipts.fileName && Corpus.receiptsPhotoHeavy.fileName == Corpus.receipts.fileName)
        #expect(!Corpus.text.contains(.receiptsPhotoLight) && Corpus.text.contains(.receiptsGuideExamples), "fm eval all answers from text")
    }

    /// The documented receipt is what the detail runs measure: its full
    /// description is several times its brief one, the brief one is the
    /// example's own descriptions (their first sentences), and the outline
    /// names the fields alone.
    @Test func theDocumentedReceiptShrinksAtEachDetail() {
        let schema = DocumentedFuelReceipt.generationSchema
        let full = schema.promptDescription(detail: .full)
        let brief = schema.promptDescription(detail: .brief)
        let outline = schema.promptDescription(detail: .outline)
        #expect(full.count > 4 * brief.count && brief.count > outline.count, "\(full.count), \(brief.count), \(outline.count)")
        for (field, sentence) in [
            ("stationBrand", "The brand of the fuel station"), ("totalAmount", "Total amount paid"),
            ("volume", "Fuel dispensed, in litres or gallons as printed"), ("pricePerUnit", "Price per litre or per gallon"),
        ] {
            #expect(brief.contains("\"\(field)\": a") && brief.contains(sentence) && !brief.contains(sentence + ". This"), "\(brief)")
            #expect(outline.contains("\"\(field)\"") && !outline.contains(sentence), "\(outline)")
        }
        #expect(DocumentedReceiptTask.fields == ReceiptTask.fields)
    }

    /// What survived OCR is judged on the rows alone: amounts with their
    /// decimals (not the `20` of `USt 20%`), the brand's words.
    @Test func theOCRColumnsSayWhatThePhotoKept() throws {
        var item = try #require(ReceiptCorpus.generate().first { $0.truth.totalAmount == 20 })
        item.photo = ReceiptPhoto(
            path: "/nonexistent.png", noise: .light, layout: [],
            texts: [
                item.truth.stationBrand.uppercased() + " Tankstelle", "USt 20% 3.33",
                "\(item.truth.volume) l x \(item.truth.pricePerUnit) EUR/l",
            ],
            ocrSeconds: 0)
        let scores = Dictionary(uniqueKeysWithValues: LightReceiptPhotoTask.survival(of: item).map { ($0.field, $0.right) })
        #expect(scores == ["ocrTotal": false, "ocrVolume": true, "ocrPrice": true, "ocrBrand": true])
        #expect(LightReceiptPhotoTask.fields.suffix(4) == ["ocrTotal", "ocrVolume", "ocrPrice", "ocrBrand"])
        #expect(LightReceiptPhotoTask.informational.isSuperset(of: ["consistent", "ocrTotal", "ocrBrand"]))
        #expect(
            LightReceiptPhotoTask.prompt(for: item).contains(
                "The station brand is printed in the first rows: \(item.truth.stationBrand.uppercased()) Tankstelle"))
    }

    @Test func notesContainTheirKeyTerms() {
        let notes = NotesCorpus.generate()
        #expect(notes.count == NotesCorpus.size)
        #expect(Set(notes.map(\.topic)).count == notes.count)
        for item in notes {
            #expect(item.notes.split(separator: ".").count >= 4)
            // Each fact contributes terms; at least one of each fact's terms is in the text.
            #expect(item.keyTerms.filter { Scoring.contains(item.notes, phrase: $0) }.count >= 4, "\(item.id)")
        }
    }

    @Test func cratesHaveDistinctArtists() {
        let crates = CrateCorpus.generate()
        #expect(crates.count == CrateCorpus.size)
        #expect(Set(crates.map(\.name)).count == crates.count)
        for crate in crates {
            #expect((4...6).contains(crate.records.count))
            #expect(Set(crate.records.map(\.artist)).count == crate.records.count)
        }
    }

    @Test func randomHelpersStayInRange() {
        var random = CorpusRandom(seed: 42)
        for count in 1...50 {
            #expect((0..<count).contains(random.below(count)))
            #expect((3...9).contains(random.int(in: 3...9)))
        }
        let items = Array(0..<20)
        #expect(random.shuffled(items).sorted() == items)
        let sample = random.sample(items, count: 5)
        #expect(sample.count == 5 && Set(sample).count == 5)
    }
}
