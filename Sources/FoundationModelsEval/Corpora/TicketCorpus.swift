/// A customer's support ticket, with what a good triage of it looks like.
package struct TicketItem: Codable, Sendable, Identifiable, Equatable {
    package var id: String
    package var category: String
    package var subject: String
    package var body: String
    package var expected: Expected

    package struct Expected: Codable, Sendable, Equatable {
        /// The queues a support lead would accept, the best first.
        package var queues: [String]
        /// The priorities a support lead would accept.
        package var priorities: [String]
    }
}

/// Generates the support-ticket corpus for the ticket example's triage
/// (queues billing, technical, account, shipping; priorities low, normal,
/// urgent): one ticket per kind of problem — outage, double charge, refund,
/// invoice correction, password reset, two-factor lockout, account deletion, hijacked account,
/// data loss, mobile crash, slowness, integration, feature request,
/// documentation question, lost parcel, wrong item — each from one of its
/// wordings with names, amounts, versions and dates filled in, and sometimes
/// a greeting, a signature or an order number around it. What is expected
/// is a set a support lead would accept: the example's instructions make a
/// customer who lost money or cannot use the product at all urgent.
package enum TicketCorpus {
    package static let seed: UInt64 = 0x71C4_E8
    package static var size: Int { kinds.count }

    struct Kind {
        var category: String
        var queues: [String]
        var priorities: [String]
        /// (subject, body) wordings; `{…}` are filled in.
        var wordings: [(String, String)]
    }

    static let kinds: [Kind] = [
        Kind(
            category: "outage", queues: ["technical"], priorities: ["urgent"],
            wordings: [
                (
                    "Dashboard down for everyone",
                    "Since {time} none of our {n} agents can open the dashboard. Every page shows \"Error 503 Service Unavailable\". Orders are piling up, please help ASAP."
                ),
                (
                    "API returning 502 for the whole company",
                    "All API calls from our systems have been failing with 502 Bad Gateway since {time}. The status page shows everything green. Our checkout is down."
                ),
            ]),
        Kind(
            category: "double-charge", queues: ["billing"], priorities: ["urgent", "normal"],
            wordings: [
                (
                    "Charged twice this month",
                    "Hi, I was charged twice for my {plan} plan this month: two payments of {amount} on {date}. Could you refund one of them?"
                ),
                ("Duplicate invoice payment", "Our card was debited {amount} twice for invoice {invoice}. Please reverse the duplicate payment."),
            ]),
        Kind(
            category: "refund", queues: ["billing"], priorities: ["normal", "urgent"],
            wordings: [
                (
                    "Refund for unused subscription",
                    "I cancelled my {plan} subscription on {date} but was still billed {amount} for the next month. I would like that refunded, please."
                ),
                ("Refund after cancelling", "We closed our {plan} plan on {date}, yet our card was charged {amount} again today. Please refund it."),
            ]),
        Kind(
            category: "invoice", queues: ["billing"], priorities: ["low", "normal"],
            wordings: [
                (
                    "Invoice address wrong",
                    "The invoice {invoice} shows our old company address. Could you send a corrected invoice? Our accountant needs it by the end of the month."
                ),
                ("VAT number missing on invoice", "Our VAT number is missing from invoice {invoice}. Can you add it and send the invoice again?"),
            ]),
        Kind(
            category: "password-reset", queues: ["account"], priorities: ["normal", "urgent"],
            wordings: [
                (
                    "Can't log in, reset email never arrives",
                    "I forgot my password and the reset email never arrives. I tried three times today and checked the spam folder. I can't get into my account."
                ),
                (
                    "Password reset link expired",
                    "Every password reset link you send me says it has expired when I click it, even right away. I still can't sign in."
                ),
            ]),
        Kind(
            category: "two-factor", queues: ["account"], priorities: ["urgent", "normal"],
            wordings: [
                (
                    "Locked out after 2FA change",
                    "I got a new phone and now the two-factor code is always rejected, so I cannot sign in. I need access to my projects by {day}."
                ),
                (
                    "Lost my authenticator app",
                    "My phone was stolen with the authenticator app on it. I can't sign in without the code. How do I get back into my account?"
                ),
            ]),
        Kind(
            category: "delete-account", queues: ["account"], priorities: ["low", "normal"],
            wordings: [
                ("Please delete my account", "I no longer use the service. Please delete my account and all the data stored with it."),
                ("Close my account", "Hello, how do I close my account? I moved to another tool and don't want to be billed again."),
            ]),
        Kind(
            category: "hijacked", queues: ["account", "technical"], priorities: ["urgent"],
            wordings: [
                (
                    "Someone else signed in to my account",
                    "I got an alert about a sign-in from {country} that was not me, and the email address on my account was changed. Please lock the account."
                ),
                (
                    "My account was taken over",
                    "Somebody changed my password and my email address last night. I can't get in any more and I see orders I did not place."
                ),
            ]),
        Kind(
            category: "data-loss", queues: ["technical"], priorities: ["urgent"],
            wordings: [
                (
                    "All my notes disappeared after the update",
                    "After updating to version {version} yesterday, all the notes I wrote last week are gone. That is months of research. Is there any way to get them back?"
                ),
                (
                    "Project files deleted by sync",
                    "The sync on {date} wiped the files of our shared project \"{project}\". {n} people lost their work. We need them restored."
                ),
            ]),
        Kind(
            category: "mobile-crash", queues: ["technical"], priorities: ["urgent", "normal"],
            wordings: [
                (
                    "iPhone app closes on launch",
                    "Since this morning the iPhone app closes right after the splash screen. iOS 17.5, app version {version}. I reinstalled it, same thing."
                ),
                (
                    "Android app crashes on open",
                    "The Android app crashes as soon as I open it, every time. Pixel 7, app version {version}. I can't use it at all."
                ),
            ]),
        Kind(
            category: "performance", queues: ["technical"], priorities: ["normal", "low"],
            wordings: [
                (
                    "App very slow since {version}",
                    "Since the {version} update, opening a project takes about {n} seconds instead of two. It works, but it is painful."
                ),
                (
                    "Search takes forever",
                    "Searching our workspace now takes around {n} seconds per query. It used to be instant. Nothing is broken, just slow."
                ),
            ]),
        Kind(
            category: "integration", queues: ["technical"], priorities: ["normal", "urgent"],
            wordings: [
                (
                    "Slack notifications stopped",
                    "Our Slack integration stopped posting notifications on {date}. Reconnecting it did not help. Email notifications still arrive."
                ),
                (
                    "Calendar sync not working",
                    "Events I create in the app no longer show up in Google Calendar since {date}. I signed out and in again, same thing."
                ),
            ]),
        Kind(
            category: "feature-request", queues: ["technical"], priorities: ["low"],
            wordings: [
                (
                    "Idea: export reports as CSV",
                    "Would it be possible to export reports as CSV? Right now I copy the numbers by hand every month. Not urgent, just an idea."
                ),
                ("Dark mode please", "Love the app! It would be great to have a dark mode for working late. No rush."),
            ]),
        Kind(
            category: "documentation", queues: ["technical", "account"], priorities: ["low", "normal"],
            wordings: [
                (
                    "How do I set up SSO?",
                    "Where can I find instructions for setting up single sign-on with Okta? I could not find them in the help center."
                ),
                (
                    "Question about API rate limits",
                    "Is there a page that explains the API rate limits? I want to know how many requests per minute we can make before planning our import."
                ),
            ]),
        Kind(
            category: "lost-parcel", queues: ["shipping"], priorities: ["normal", "urgent"],
            wordings: [
                (
                    "Order never arrived",
                    "My order #{order} was marked as delivered on {date}, but nothing came. I checked with my neighbours. Where is my parcel?"
                ),
                ("Package stuck in transit", "The tracking for order #{order} has said \"in transit\" for {n} days. Can you find out where it is?"),
            ]),
        Kind(
            category: "wrong-item", queues: ["shipping"], priorities: ["normal"],
            wordings: [
                (
                    "Wrong item in my box",
                    "I ordered the blue {product} but the box I received on {date} has a red one in it. Can you send the right one? Order #{order}."
                ),
                (
                    "Parcel arrived damaged",
                    "The {product} from order #{order} arrived with a cracked case; the box was crushed. I would like a replacement."
                ),
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
                text +=
                    "\n\n" + random.pick(["Thanks,\n", "Best regards,\n", "Cheers,\n"])
                    + random.pick(["Dana Whitfield", "Marco Ruiz", "Priya Natarajan", "Tom Becker", "Aiko Sato"])
                if random.chance(0.5) {
                    text += "\n" + random.pick(["Sent from my phone", "Customer since 2019", "Order #\(random.int(in: 10_000...99_999))"])
                }
            }
            return TicketItem(
                id: "ticket-\(number + 1 < 10 ? "0" : "")\(number + 1)",
                category: kind.category,
                subject: fill(subject, &random),
                body: text,
                expected: .init(queues: kind.queues, priorities: kind.priorities)
            )
        }
    }

    private static let placeholders = [
        "{amount}", "{country}", "{date}", "{day}", "{invoice}", "{n}", "{order}", "{plan}", "{product}", "{project}", "{time}", "{version}",
    ]

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
        case "{order}": "\(random.int(in: 100_000...999_999))"
        case "{product}": random.pick(["water bottle", "backpack", "phone case", "desk lamp"])
        default: placeholder
        }
    }
}
