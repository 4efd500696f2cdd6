"""The English sites of the offline web: an encyclopedia, a local news site, a grocery shop, a
restaurant with a booking form and a library with a feedback form (San Francisco, July 2024)."""

from __future__ import annotations

from spa_bench.phone.apps.browser.web import (
    Page,
    choice,
    fact,
    h,
    item,
    link,
    meta,
    p,
    submit,
    text_field,
)

WIKI = "https://openpedia.org/wiki/"
NEWS = "https://baydaily.com/"
SHOP = "https://greenleafmarket.com/"
LOTUS = "https://lotusgarden.com/"
LIBRARY = "https://citylibrary.org/"

# The new-tab page's shortcuts (the search engine's home page shows them).
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Openpedia", WIKI + "Main_Page"),
    ("Bay Daily", NEWS),
    ("Greenleaf Market", SHOP),
    ("Lotus Garden", LOTUS),
    ("City Library", LIBRARY),
)

PAGES: tuple[Page, ...] = (
    Page(
        WIKI + "Main_Page",
        "Openpedia, the free encyclopedia",
        (
            h("Welcome to Openpedia"),
            p("The free encyclopedia that anyone can edit. Featured articles this week:"),
            link("Golden Gate Bridge", WIKI + "Golden_Gate_Bridge"),
            link("Mount Everest", WIKI + "Mount_Everest"),
            link("Eiffel Tower", WIKI + "Eiffel_Tower"),
            link("Python (programming language)", WIKI + "Python_(programming_language)"),
        ),
        keywords="encyclopedia wiki",
    ),
    Page(
        WIKI + "Golden_Gate_Bridge",
        "Golden Gate Bridge - Openpedia",
        (
            h("Golden Gate Bridge"),
            p(
                "The Golden Gate Bridge is a suspension bridge spanning the Golden Gate, the strait "
                "connecting San Francisco Bay and the Pacific Ocean. It links San Francisco to Marin "
                "County and carries U.S. Route 101 and California State Route 1."
            ),
            fact("Opened", "May 27, 1937"),
            fact("Total length", "2,737 m"),
            fact("Main span", "1,280 m"),
            fact("Tower height", "227 m"),
            fact("Chief engineer", "Joseph Strauss"),
            fact("Colour", "International Orange"),
            p(
                "When it opened it was the longest and the tallest suspension bridge in the world. "
                "About 112,000 vehicles cross it every day; the southbound toll is $9.75."
            ),
            link("See also: Mount Everest", WIKI + "Mount_Everest"),
        ),
        keywords="bridge san francisco suspension",
    ),
    Page(
        WIKI + "Mount_Everest",
        "Mount Everest - Openpedia",
        (
            h("Mount Everest"),
            p(
                "Mount Everest is Earth's highest mountain above sea level, in the Mahalangur Himal "
                "sub-range of the Himalayas. The China-Nepal border runs across its summit point."
            ),
            fact("Elevation", "8,849 m"),
            fact("First ascent", "29 May 1953"),
            fact("First climbers", "Edmund Hillary and Tenzing Norgay"),
            fact("Range", "Himalayas"),
            p("Its elevation of 8,848.86 m was announced jointly by China and Nepal in December 2020."),
        ),
        keywords="mountain himalaya highest peak",
    ),
    Page(
        WIKI + "Eiffel_Tower",
        "Eiffel Tower - Openpedia",
        (
            h("Eiffel Tower"),
            p(
                "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
                "It is named after the engineer Gustave Eiffel, whose company designed and built it."
            ),
            fact("Completed", "31 March 1889"),
            fact("Height", "330 m"),
            fact("Floors", "3"),
            fact("Visitors per year", "about 6 million"),
            p("It was built as the entrance arch to the 1889 World's Fair."),
        ),
        keywords="paris france tower landmark",
    ),
    Page(
        WIKI + "Python_(programming_language)",
        "Python (programming language) - Openpedia",
        (
            h("Python (programming language)"),
            p(
                "Python is a high-level, general-purpose programming language. Its design philosophy "
                "emphasises code readability with the use of significant indentation."
            ),
            fact("Designed by", "Guido van Rossum"),
            fact("First appeared", "20 February 1991"),
            fact("Latest release", "3.12.4 (June 2024)"),
            fact("File extension", ".py"),
        ),
        keywords="programming language software code",
    ),
    Page(
        NEWS,
        "Bay Daily - San Francisco news",
        (
            h("Bay Daily"),
            meta("Saturday, July 20, 2024"),
            link("Market Street gets protected bike lanes", NEWS + "2024/07/19/market-street-bike-lanes"),
            link("Libraries stay open later this summer", NEWS + "2024/07/18/library-summer-hours"),
            link("Night market returns to Chinatown", NEWS + "2024/07/17/chinatown-night-market"),
        ),
        keywords="news san francisco local",
    ),
    Page(
        NEWS + "2024/07/19/market-street-bike-lanes",
        "Market Street gets protected bike lanes - Bay Daily",
        (
            h("Market Street gets protected bike lanes"),
            meta("By Dana Whitfield · July 19, 2024"),
            p(
                "The city will open 3.2 km of protected bike lanes on Market Street on August 5, from "
                "the Embarcadero to Van Ness Avenue. Concrete barriers separate the lanes from traffic."
            ),
            p(
                "The project cost $14.5 million and took eleven months. Officials expect about 9,000 "
                "cyclists a day to use the new lanes by the end of the year."
            ),
            link("Back to Bay Daily", NEWS),
        ),
        keywords="bike cycling lanes traffic market street",
    ),
    Page(
        NEWS + "2024/07/18/library-summer-hours",
        "Libraries stay open later this summer - Bay Daily",
        (
            h("Libraries stay open later this summer"),
            meta("By Marcus Lee · July 18, 2024"),
            p(
                "All 27 branches of the City Library will stay open until 9 pm from Monday to Thursday "
                "through August 31, two hours later than usual."
            ),
            p("The Main Library will also open at 10 am on Sundays, and its rooftop reading room reopens."),
            link("City Library", LIBRARY),
        ),
        keywords="library hours summer books",
    ),
    Page(
        NEWS + "2024/07/17/chinatown-night-market",
        "Night market returns to Chinatown - Bay Daily",
        (
            h("Night market returns to Chinatown"),
            meta("By Ivy Tran · July 17, 2024"),
            p(
                "The Chinatown Night Market returns on Grant Avenue every Saturday from July 27, from "
                "6 pm to 11 pm, with more than 60 food stalls and live music."
            ),
            p("Entry is free. Muni lines 1 and 30 stop two blocks away."),
        ),
        keywords="night market chinatown food festival",
    ),
    Page(
        SHOP,
        "Greenleaf Market - fresh groceries delivered",
        (
            h("Greenleaf Market"),
            meta("Weekly prices · free delivery over $35"),
            item("Organic Bananas, 1 lb", "$0.79"),
            item("Hass Avocados, 4-pack", "$5.99", "ripe and ready"),
            item("Whole Milk, 1 gal", "$4.49"),
            item("Sourdough Loaf", "$6.50", "baked daily"),
            item("Free-range Eggs, dozen", "$5.29"),
            item("Ground Coffee, 12 oz", "$9.99", "medium roast"),
            item("Greek Yogurt, 32 oz", "$5.49"),
            item("Extra Virgin Olive Oil, 500 ml", "$11.99"),
            item("Strawberries, 1 lb", "$3.99", "this week's deal"),
        ),
        keywords="grocery groceries shop food prices delivery",
    ),
    Page(
        LOTUS,
        "Lotus Garden - Cantonese restaurant",
        (
            h("Lotus Garden"),
            p("Cantonese dim sum and seafood in the Richmond District since 1988."),
            fact("Address", "1220 Clement St, San Francisco"),
            fact("Phone", "(415) 555-0188"),
            fact("Hours", "11:00 - 21:30 daily"),
            link("Book a table", LOTUS + "reserve"),
        ),
        keywords="restaurant dim sum cantonese chinese food dinner",
    ),
    Page(
        LOTUS + "reserve",
        "Book a table - Lotus Garden",
        (
            h("Book a table"),
            p("Tables are held for 15 minutes. For groups over 6, please call us."),
            text_field("name", "Name"),
            text_field("phone", "Phone"),
            text_field("date", "Date (YYYY-MM-DD)"),
            choice("party", "Party size", ("2", "3", "4", "5", "6")),
            choice("time", "Time", ("17:30", "18:00", "18:30", "19:00", "19:30", "20:00")),
            text_field("notes", "Special requests", required=False),
            submit("Book now"),
        ),
        keywords="reservation booking table restaurant",
        form="lotus_reservation",
        confirm="Thank you, {name}! Your table for {party} on {date} at {time} is booked. Booking "
        "number: {ref}.",
    ),
    Page(
        LIBRARY,
        "City Library",
        (
            h("City Library"),
            fact("Main Library", "100 Larkin St"),
            fact("Mon - Thu", "9:00 - 21:00 (summer hours)"),
            fact("Fri - Sat", "9:00 - 18:00"),
            fact("Sun", "10:00 - 17:00"),
            p("Borrow up to 50 items at a time for 21 days. Renew online up to three times."),
            link("Send us feedback", LIBRARY + "feedback"),
        ),
        keywords="library books hours opening",
    ),
    Page(
        LIBRARY + "feedback",
        "Feedback - City Library",
        (
            h("Send us feedback"),
            p("We read every message and answer within five working days."),
            text_field("name", "Your name"),
            text_field("email", "Email"),
            choice("topic", "Topic", ("Opening hours", "Events", "Books & media", "Other")),
            text_field("message", "Message"),
            submit("Send"),
        ),
        keywords="feedback contact library",
        form="library_feedback",
        confirm="Thanks, {name}. We received your message about {topic}. Reference: {ref}.",
    ),
)
