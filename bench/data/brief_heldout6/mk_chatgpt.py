"""Writes heldout6_assistant_chats.json (a ChatGPT export) from the turns below; run once, kept for the record."""
import json
from datetime import datetime, timezone
from pathlib import Path

CONVS = [
    ("Allotment plan", [
        ("2026-09-06T10:02", "user", "I finally got an allotment! Plot 17 at Moorside Allotments in Sheffield, 250 square metres, "
         "the rent is £38 a year. It's completely overgrown with couch grass and brambles. How do I clear it without chemicals "
         "before spring?"),
        ("2026-09-06T10:03", "assistant", "Congratulations, that is a great size for a first plot. The most reliable chemical-free "
         "approach is to work in sections: cut the brambles to the ground and dig out their crowns; cover the rest with light-excluding "
         "sheet mulch (cardboard weighted down, or black silage sheet) for at least three to four months; and dig one bed by hand now "
         "so you have something to plant in autumn. Couch grass roots break and regrow, so fork them out rather than rotavating. "
         "Garlic and broad beans can go in the first cleared bed in October or November."),
        ("2026-09-06T10:09", "user", "PERFECT thank you"),
        ("2026-09-06T10:09", "assistant", "You're welcome. Enjoy the plot!"),
        ("2026-10-18T15:40", "user", "Update: two beds are cleared and the rest is under black sheet. I'm planting garlic (Germidour) "
         "and Aquadulce broad beans next Saturday, 24 October. Should I add manure first?"),
        ("2026-10-18T15:41", "assistant", "Well-rotted manure is good for the broad beans' bed, but keep fresh manure away from garlic, "
         "which prefers a firm, not too rich soil. Plant the cloves 15 cm apart and 2-3 cm deep, pointy end up, and the beans 20 cm apart "
         "in double rows. Net the beans against mice and pigeons."),
        ("2026-10-18T15:45", "user", "lol ok, netting it is"),
    ]),
    ("Secondary school application", [
        ("2026-09-20T20:15", "user", "My daughter Maya is 10 and starts secondary school in September 2027. We're choosing between "
         "Kingsmead Academy (walkable, rated good) and Hallam Grammar (selective, 40 minutes on the bus, entrance test). The council "
         "deadline is 31 October. Can you help me think it through?"),
        ("2026-09-20T20:16", "assistant", "Of course. A few questions usually settle it: how Maya feels about a test and a long commute, "
         "whether the grammar school's results are better for children of her profile once you account for selection, and the "
         "after-school life each route allows. On the application you rank up to six schools, so you can put Hallam first and "
         "Kingsmead second without risk: ranking a school first never lowers your chance at the second."),
        ("2026-09-20T20:20", "user", "That's really helpful, I didn't know the ranking works like that"),
        ("2026-09-27T19:02", "user", "We visited both. Maya loved Kingsmead's art department and the drama club, and she really doesn't "
         "want to sit the Hallam test. We decided: Kingsmead first, Northfield Park second. I submitted the application today, reference "
         "SHF-2027-44817."),
        ("2026-09-27T19:03", "assistant", "That sounds like a well-considered choice, and her enthusiasm matters a lot for the first years. "
         "Keep the reference safe; offers are sent on National Offer Day, 1 March 2027."),
        ("2026-09-27T19:05", "user", "thanks!!"),
        ("2026-11-12T21:30", "user", "Kingsmead has an induction evening for applicants on Thursday 3 December at 6pm. What should we "
         "ask them?"),
        ("2026-11-12T21:31", "assistant", "Good ones to ask: how Year 7 form groups are made and whether friends can be together, what "
         "clubs run at lunchtime, how homework is set and how much, how they support a child who is shy at first, and how parents hear "
         "about problems. Ask to see the art rooms again with Maya so she can picture herself there."),
    ]),
    ("Conference talk", [
        ("2026-10-02T09:00", "user", "My talk got accepted at DataFest North in Manchester! 'Forecasting bus delays with small data', "
         "25 minutes on Friday 5 March 2027. I'm a data analyst at South Yorkshire Transport. I've never spoken at a conference. How "
         "do I structure it?"),
        ("2026-10-02T09:01", "assistant", "Congratulations! For 25 minutes, aim for one idea the audience will remember: for example that a "
         "simple model with the right features beats a complex one on small data. Open with a concrete late bus, show the data you had, "
         "the model, one honest failure, and what it changed at work. Keep about 12 slides and rehearse with a timer."),
        ("2026-10-02T09:05", "user", "YESSS ok"),
        ("2026-10-02T09:05", "assistant", "You'll do great."),
        ("2026-11-05T18:10", "user", "The organisers moved my talk to Saturday 6 March 2027 at 11:30, same room. Also my manager Deborah "
         "Quinn agreed the company pays the hotel. Slides are due to them by 15 February."),
        ("2026-11-05T18:11", "assistant", "Good news on the hotel. With slides due on 15 February, a dry run with colleagues in the first week "
         "of February leaves time for one round of changes."),
        ("2026-11-05T18:12", "user", "haha yes"),
    ]),
    ("E-bike", [
        ("2026-10-24T11:20", "user", "I want an e-bike for the commute, 9 miles each way with a big hill at the end. Budget around £2,000. "
         "Hub or mid-drive motor?"),
        ("2026-10-24T11:21", "assistant", "For a long climb a mid-drive is the better choice: it uses the bike's gears, so it stays efficient "
         "on steep hills and the battery lasts longer. At around £2,000 look at bikes with a Shimano EP or Bosch Active Line motor and a "
         "400-500 Wh battery; your employer's cycle-to-work scheme can save 25-40 %."),
        ("2026-10-24T11:30", "user", "cool"),
        ("2026-11-16T17:45", "user", "Went for the Cube Touring Hybrid One 500, £2,199 through the cycle-to-work scheme, so about £1,500 "
         "after tax savings. Collecting it from Evans Cycles on Saturday 28 November!"),
        ("2026-11-16T17:46", "assistant", "Nice choice: a mid-drive Bosch motor and a 500 Wh battery will handle that hill. Ask the shop to "
         "set the saddle height when you collect it, and charge the battery fully before the first commute."),
        ("2026-11-16T17:47", "user", "LETS GOOO"),
        ("2026-11-19T08:00", "user", "thank you for all the help!!"),
        ("2026-11-19T08:00", "assistant", "Any time. Enjoy the ride!"),
    ]),
]


def ts(s: str) -> float:
    return datetime.fromisoformat(s).replace(tzinfo=timezone.utc).timestamp()


def conversation(n: int, title: str, turns: list[tuple[str, str, str]]) -> dict:
    mapping: dict = {"root": {"id": "root", "parent": None, "children": [], "message": None}}
    parent = "root"
    for i, (when, role, text) in enumerate(turns):
        key = f"c{n}-{i}"
        mapping[parent]["children"].append(key)
        mapping[key] = {"id": key, "parent": parent, "children": [], "message": {
            "id": f"m-{key}", "author": {"role": role, "name": None}, "create_time": ts(when),
            "content": {"content_type": "text", "parts": [text]}, "recipient": "all", "metadata": {}}}
        parent = key
    return {"id": f"conv-{n}", "title": title, "create_time": ts(turns[0][0]), "update_time": ts(turns[-1][0]),
            "current_node": parent, "mapping": mapping}


out = [conversation(n, t, turns) for n, (t, turns) in enumerate(CONVS, 1)]
Path(__file__).with_name("heldout6_assistant_chats.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
