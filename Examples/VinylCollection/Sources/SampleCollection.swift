extension RecordCollection {
    /// A collection to try the features on: 60 well-known records, with plays.
    public static let sample = RecordCollection(
        albums: sampleRows.split(separator: "\n").enumerated().compactMap { index, row in
            let fields = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let year = Int(fields[2]), let plays = Int(fields[4]) else { return nil }
            return Album(id: "lp-\(index + 1)", artist: fields[0], title: fields[1], year: year, genre: fields[3], plays: plays)
        })

    /// The sample's crates, by name.
    public static func sampleCrate(_ name: String, artists: [String]) -> Crate {
        Crate(name: name, albums: sample.albums.filter { artists.contains($0.artist) })
    }

    /// artist|title|year|genre|plays
    private static let sampleRows = """
        Miles Davis|Kind of Blue|1959|jazz|41
        John Coltrane|A Love Supreme|1965|jazz|33
        John Coltrane|Blue Train|1958|jazz|12
        Bill Evans Trio|Sunday at the Village Vanguard|1961|jazz|18
        Herbie Hancock|Head Hunters|1973|jazz funk|15
        Thelonious Monk|Brilliant Corners|1957|jazz|9
        Dave Brubeck Quartet|Time Out|1959|jazz|22
        Charles Mingus|Mingus Ah Um|1959|jazz|11
        Art Blakey and the Jazz Messengers|Moanin'|1958|jazz|8
        Nina Simone|Pastel Blues|1965|soul jazz|14
        Marvin Gaye|What's Going On|1971|soul|29
        Stevie Wonder|Songs in the Key of Life|1976|soul|24
        Aretha Franklin|Lady Soul|1968|soul|10
        Curtis Mayfield|Superfly|1972|soul|7
        Al Green|Let's Stay Together|1972|soul|6
        Bill Withers|Still Bill|1972|soul|9
        The Beatles|Abbey Road|1969|rock|27
        The Beatles|Revolver|1966|rock|19
        Pink Floyd|The Dark Side of the Moon|1973|progressive rock|31
        Pink Floyd|Wish You Were Here|1975|progressive rock|16
        Led Zeppelin|Led Zeppelin IV|1971|hard rock|13
        Fleetwood Mac|Rumours|1977|rock|26
        David Bowie|Hunky Dory|1971|rock|17
        David Bowie|Low|1977|art rock|8
        The Velvet Underground|The Velvet Underground & Nico|1967|art rock|5
        Joni Mitchell|Blue|1971|folk|23
        Nick Drake|Pink Moon|1972|folk|12
        Bob Dylan|Blood on the Tracks|1975|folk rock|14
        Simon & Garfunkel|Bridge over Troubled Water|1970|folk rock|6
        Leonard Cohen|Songs of Leonard Cohen|1967|folk|4
        Kraftwerk|Trans-Europe Express|1977|electronic|10
        Kraftwerk|Computer World|1981|electronic|7
        Brian Eno|Ambient 1: Music for Airports|1978|ambient|9
        Aphex Twin|Selected Ambient Works 85-92|1992|electronic|11
        Daft Punk|Discovery|2001|electronic|15
        Massive Attack|Mezzanine|1998|trip hop|13
        Portishead|Dummy|1994|trip hop|12
        Boards of Canada|Music Has the Right to Children|1998|electronic|8
        Radiohead|OK Computer|1997|alternative rock|25
        Radiohead|Kid A|2000|alternative rock|18
        Nirvana|Nevermind|1991|grunge|9
        Pixies|Doolittle|1989|alternative rock|7
        The Smiths|The Queen Is Dead|1986|indie rock|10
        Talking Heads|Remain in Light|1980|new wave|14
        Joy Division|Unknown Pleasures|1979|post-punk|11
        The Clash|London Calling|1979|punk|12
        Prince|Purple Rain|1984|funk|16
        Michael Jackson|Thriller|1982|pop|20
        Kate Bush|Hounds of Love|1985|art pop|13
        Björk|Homogenic|1997|art pop|9
        Fela Kuti|Zombie|1976|afrobeat|6
        Bob Marley and the Wailers|Exodus|1977|reggae|15
        Buena Vista Social Club|Buena Vista Social Club|1997|son cubano|10
        Antônio Carlos Jobim|Wave|1967|bossa nova|8
        Stan Getz and João Gilberto|Getz/Gilberto|1964|bossa nova|17
        Public Enemy|It Takes a Nation of Millions to Hold Us Back|1988|hip hop|5
        A Tribe Called Quest|The Low End Theory|1991|hip hop|12
        Lauryn Hill|The Miseducation of Lauryn Hill|1998|hip hop soul|14
        Kendrick Lamar|To Pimp a Butterfly|2015|hip hop|10
        Johnny Cash|At Folsom Prison|1968|country|7
        """
}
