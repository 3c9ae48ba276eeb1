/// A customer's support ticket, with what a good triage of it looks like.
package struct TicketItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    package var category: String
    package var subject: String
    package var body: String
    package var expected: Expected

    package struct Expected: Codable, Sendable, Equatable {
        /// The urgencies a support lead would accept.
        package var minimumUrgency: Int
        package var maximumUrgency: Int
        /// Tags the triage must include.
        package var requiredTags: [String]
        /// Every tag the triage may use (the required ones included).
        package var acceptableTags: [String]
    }
}

/// Generates the support-ticket corpus: one ticket per kind of problem
/// (outage, double charge, login, feature request, data loss, security,
/// performance, mobile crash, integration, documentation), each from one
/// of its wordings with names, amounts, versions and dates filled in, and
/// sometimes a signature or an order number around it. The expected urgency
/// is a range (what a support lead would accept), tags are required and
/// acceptable sets over the app's fixed tag list.
package enum TicketCorpus {
    package static let seed: UInt64 = 0x71C4_E7
    package static let size = 10

    /// The routing tags the help desk uses.
    package static let tags = [
        "billing", "login", "account", "outage", "performance", "bug",
        "feature-request", "data-loss", "security", "mobile", "integration", "documentation",
    ]

    struct Kind {
        var category: String
        var urgency: ClosedRange<Int>
        var required: [String]
        var acceptable: [String]
        /// (subject, body) wordings; `{…}` are filled in.
        var wordings: [(String, String)]
    }

    static let kinds: [Kind] = [
        Kind(category: "outage", urgency: 4...5, required: ["outage"], acceptable: ["outage", "performance", "bug", "integration"], wordings: [
            ("Dashboard down for everyone", "Since {time} none of our {n} agents can open the dashboard. Every page shows \"Error 503 Service Unavailable\". Orders are piling up, please help ASAP."),
            ("API returning 502 for the whole company", "All API calls from our systems have been failing with 502 Bad Gateway since {time}. The status page shows everything green. Our checkout is down."),
        ]),
        Kind(category: "double-charge", urgency: 2...3, required: ["billing"], acceptable: ["billing", "account", "bug"], wordings: [
            ("Charged twice this month", "Hi, I was charged twice for my {plan} plan this month: two payments of {amount} on {date}. Could you refund one of them?"),
            ("Duplicate invoice payment", "Our card was debited {amount} twice for invoice {invoice}. Please reverse the duplicate payment."),
        ]),
        Kind(category: "login", urgency: 2...4, required: ["login"], acceptable: ["login", "account", "bug", "security"], wordings: [
            ("Can't log in, reset email never arrives", "I forgot my password and the reset email never arrives. I tried three times today and checked the spam folder. I can't get into my account."),
            ("Locked out after 2FA change", "I got a new phone and now the two-factor code is always rejected, so I cannot sign in. I need access to my projects by {day}."),
        ]),
        Kind(category: "feature-request", urgency: 1...2, required: ["feature-request"], acceptable: ["feature-request", "integration", "documentation"], wordings: [
            ("Idea: export reports as CSV", "Would it be possible to export reports as CSV? Right now I copy the numbers by hand every month. Not urgent, just an idea."),
            ("Dark mode please", "Love the app! It would be great to have a dark mode for working late. No rush."),
        ]),
        Kind(category: "data-loss", urgency: 4...5, required: ["data-loss"], acceptable: ["data-loss", "bug", "mobile"], wordings: [
            ("All my notes disappeared after the update", "After updating to version {version} yesterday, all the notes I wrote last week are gone. That is months of research. Is there any way to get them back?"),
            ("Project files deleted by sync", "The sync on {date} wiped the files of our shared project \"{project}\". {n} people lost their work. We need them restored."),
        ]),
        Kind(category: "security", urgency: 4...5, required: ["security"], acceptable: ["security", "login", "account"], wordings: [
            ("Someone else signed in to my account", "I got an alert about a sign-in from {country} that was not me, and the email address on my account was changed. Please lock the account."),
            ("Possible leaked API key", "We found our production API key in a public repository this morning. Please revoke it and tell us whether it was used."),
        ]),
        Kind(category: "performance", urgency: 2...4, required: ["performance"], acceptable: ["performance", "bug", "mobile"], wordings: [
            ("App very slow since {version}", "Since the {version} update, opening a project takes about {n} seconds instead of two. It works, but it is painful."),
            ("Search takes forever", "Searching our workspace now takes around {n} seconds per query. It used to be instant. Nothing is broken, just slow."),
        ]),
        Kind(category: "mobile-crash", urgency: 3...4, required: ["mobile"], acceptable: ["mobile", "bug", "performance"], wordings: [
            ("Android app crashes on Share", "The Android app crashes every time I tap Share on a document. Phone: Pixel 7, app version {version}. The web version works."),
            ("iPhone app closes on launch", "Since this morning the iPhone app closes right after the splash screen. iOS 17.5, app version {version}. I reinstalled it, same thing."),
        ]),
        Kind(category: "integration", urgency: 2...4, required: ["integration"], acceptable: ["integration", "bug", "outage"], wordings: [
            ("Slack notifications stopped", "Our Slack integration stopped posting notifications on {date}. Reconnecting it did not help. Email notifications still arrive."),
            ("Zapier zap fails with 401", "Our Zapier zap that creates tickets fails with \"401 Unauthorized\" since {date}, although the token is new."),
        ]),
        Kind(category: "documentation", urgency: 1...2, required: ["documentation"], acceptable: ["documentation", "account", "login", "feature-request", "integration"], wordings: [
            ("How do I set up SSO?", "Where can I find instructions for setting up single sign-on with Okta? I could not find them in the help center."),
            ("Question about API rate limits", "Is there a page that explains the API rate limits? I want to know how many requests per minute we can make before planning our import."),
        ]),
    ]

    package static func generate(seed: UInt64 = seed) -> [TicketItem] {
        var random = CorpusRandom(seed: seed)
        let order = random.shuffled(Array(kinds.indices))
        return order.enumerated().map { number, index in
            let kind = kinds[index]
            let (subject, body) = random.pick(kind.wordings)
            var text = fill(body, &random)
            if random.chance(0.4) {
                text = random.pick(["Hello,\n\n", "Hi team,\n\n", "Good morning,\n\n"]) + text
            }
            if random.chance(0.5) {
                text += "\n\n" + random.pick(["Thanks,\n", "Best regards,\n", "Cheers,\n"]) + random.pick(["Dana Whitfield", "Marco Ruiz", "Priya Natarajan", "Tom Becker", "Aiko Sato"])
                if random.chance(0.5) { text += "\n" + random.pick(["Sent from my phone", "Customer since 2019", "Order #\(random.int(in: 10_000...99_999))"]) }
            }
            return TicketItem(
                id: "ticket-\(number + 1 < 10 ? "0" : "")\(number + 1)",
                category: kind.category,
                subject: fill(subject, &random),
                body: text,
                expected: .init(minimumUrgency: kind.urgency.lowerBound, maximumUrgency: kind.urgency.upperBound,
                                requiredTags: kind.required, acceptableTags: kind.acceptable)
            )
        }
    }

    private static let placeholders = ["{amount}", "{country}", "{date}", "{day}", "{invoice}", "{n}", "{plan}", "{project}", "{time}", "{version}"]

    private static func fill(_ template: String, _ random: inout CorpusRandom) -> String {
        var text = template
        for key in placeholders where text.contains(key) {
            text = text.replacingOccurrences(of: key, with: value(for: key, &random))
        }
        return text
    }

    private static func value(for placeholder: String, _ random: inout CorpusRandom) -> String {
        switch placeholder {
        case "{time}": "\(random.int(in: 6...11)):\(random.pick(["05", "20", "40", "55"])) this morning"
        case "{n}": "\(random.int(in: 12...60))"
        case "{plan}": random.pick(["Pro", "Team", "Business"])
        case "{amount}": random.pick(["$29.00", "€49.00", "$99.00", "£19.00"])
        case "{date}": random.pick(["March 3", "June 14", "September 22", "November 8"])
        case "{invoice}": "INV-\(random.int(in: 10_000...99_999))"
        case "{day}": random.pick(["Monday", "Thursday", "tomorrow"])
        case "{version}": "\(random.int(in: 3...7)).\(random.int(in: 0...9)).\(random.int(in: 0...4))"
        case "{project}": random.pick(["Q3 Launch", "Atlas", "Website Redesign"])
        case "{country}": random.pick(["Brazil", "Vietnam", "Romania", "Canada"])
        default: placeholder
        }
    }
}
