"""Writes heldout8_keep_takeout/Takeout/Keep/*.json: a Dutch Google Keep export (a sailboat's restoration,
recipes, shopping lists, a few journal lines), one Keep note per file as Takeout writes them. Run once;
the files are committed, this script says how they were made."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

OUT = Path(__file__).resolve().parent / "heldout8_keep_takeout" / "Takeout" / "Keep"

# (created, title, labels, text or None, checklist items or None)
NOTES: list[tuple[str, str, list[str], str | None, list[tuple[str, bool]] | None]] = [
    ("2026-09-05 10:12", "Zwaluw — plan van aanpak", ["Zwaluw"],
     "De Zwaluw (Waarschip 570, bouwjaar 1974) staat sinds 1 september in de winterstalling bij Jachtwerf De Vries "
     "in Lemmer. Plan voor de winter: romp schuren en lakken, nieuwe zeilen, motor laten nakijken, mast keuren. "
     "Stallingskosten €640 voor de hele winter, betaald.", None),
    ("2026-09-07 18:30", "Zuurdesembrood", ["Recepten"],
     "500 g bloem (400 wit, 100 volkoren), 375 g water (75%), 100 g actieve starter, 10 g zout. Autolyse 1 uur, "
     "4 keer stretch & fold om het half uur, bulk tot +50%, nacht in de koelkast. Bakken 250 °C: 20 min met deksel, "
     "25 min zonder.", None),
    ("2026-09-12 09:00", "Boodschappen", [], None,
     [("melk", True), ("eieren", True), ("volkoren meel", False), ("koffiebonen", True), ("appels", False)]),
    ("2026-09-19 16:45", "Zwaluw — romp", ["Zwaluw"],
     "Romp geschuurd tot op de gelcoat, twee osmoseblaasjes bij het roer gevonden. Jan de Vries zegt: laten drogen "
     "tot het voorjaar, dan epoxy. Antifouling pas vlak voor het te water gaan.", None),
    ("2026-09-26 20:10", "Appeltaart van oma Truus", ["Recepten"],
     "Deeg: 300 g zelfrijzend bakmeel, 200 g roomboter, 150 g basterdsuiker, 1 ei, snuf zout. Vulling: 1,5 kg "
     "Goudreinetten, kaneel, rozijnen geweld in rum, citroensap. 1 uur op 175 °C. Roosterpatroon bovenop.", None),
    ("2026-10-02 11:20", "Zwaluw — zeilen", ["Zwaluw"],
     "Offerte Zeilmakerij Bakker (Enkhuizen): nieuw grootzeil en genua 130%, Dacron, samen €1.850. Levering week 50.",
     None),
    ("2026-10-03 08:15", "Dagboek", [],
     "Regen de hele dag. Koffie gedronken bij Anouk, ze heeft een nieuwe hond (Pip).", None),
    ("2026-10-09 19:40", "Zwaluw — zeilen besteld", ["Zwaluw"],
     "Zeilen besteld bij Zeilmakerij Bakker, aanbetaling €600 gedaan. Rest (€1.250) bij levering. Opmeten van de "
     "mast op zaterdag 17 oktober.", None),
    ("2026-10-14 21:05", "Erwtensoep", ["Recepten"],
     "500 g spliterwten, 1 rookworst, 250 g speklappen, 1 knolselderij, 2 winterpenen, 2 preien, 1 ui. 2 uur "
     "trekken, de rookworst pas het laatste half uur. Dag later lekkerder.", None),
    ("2026-10-17 15:30", "Zwaluw — mast", ["Zwaluw"],
     "Mast opgemeten door Bakker. Mastvoet heeft corrosie; keuring van de mast en het staand want door "
     "Riggerij Hoekstra op dinsdag 10 november.", None),
    ("2026-10-21 12:00", "Boodschappen", [], None,
     [("melk", False), ("brood", True), ("spliterwten", True), ("rookworst", True), ("knolselderij", True)]),
    ("2026-10-28 17:50", "Zwaluw — motor", ["Zwaluw"],
     "Yanmar 1GM10 start slecht. Monteur Sietse van Watersport Lemmer komt op dinsdag 8 december: impeller, "
     "olie, koelwaterpomp. Schatting €420.", None),
    ("2026-11-02 09:25", "Dagboek", [],
     "Eerste nachtvorst. Fietsband lek op weg naar werk, te laat voor de standup.", None),
    ("2026-11-06 18:00", "Zwaluw — mastkeuring verzet", ["Zwaluw"],
     "Hoekstra belde: keuring van de mast verzet van 10 november naar donderdag 19 november, hun kraan is kapot.",
     None),
    ("2026-11-08 10:40", "Kaneelbroodjes", ["Recepten"],
     "Deeg: 500 g bloem, 250 ml lauwe melk, 7 g gist, 75 g boter, 50 g suiker. Vulling: 100 g zachte boter, "
     "80 g bruine suiker, 2 el kaneel. 2 keer rijzen, 18 min op 200 °C.", None),
    ("2026-11-12 20:30", "Zwaluw — te water", ["Zwaluw"],
     "Te water laten gepland op zaterdag 20 maart 2027, met de kraan van De Vries. Daarvoor: antifouling, "
     "nieuwe zeilen aanslaan, motor proefdraaien.", None),
    ("2026-11-15 14:10", "Boodschappen", [], None,
     [("melk", False), ("kaneel", True), ("gist", True), ("koffiebonen", False)]),
    ("2026-11-19 16:20", "Zwaluw — mastkeuring", ["Zwaluw"],
     "Mast gekeurd door Hoekstra: mastvoet vervangen (€310), twee wantspanners nieuw. Staand want nog goed tot 2030.",
     None),
    ("2026-11-20 19:15", "Zwaluw — te water verzet", ["Zwaluw"],
     "De Vries heeft de kraan in maart vol: te water laten verzet naar zaterdag 3 april 2027 om 9:00. Nog melden bij "
     "de havenmeester van Lemmer voor de ligplaats (voor 1 februari).", None),
    ("2026-11-21 11:00", "Oliebollen voor oudjaar", ["Recepten"],
     "Oliebollen op 31 december bakken, voor de buren: 500 g bloem, 0,5 l melk, 1 zakje gist, 2 eieren, 250 g "
     "krenten en rozijnen, 1 appel. Frituren op 180 °C.", None),
    ("2026-11-21 21:40", "Dagboek", [],
     "Kerstmarkt in Sneek met Anouk. Glühwein, koud. Pip was bang van de draaimolen.", None),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for i, (when, title, labels, text, items) in enumerate(NOTES):
        at = datetime.strptime(when, "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc)
        usec = int(at.timestamp() * 1_000_000)
        note: dict[str, object] = {"color": "DEFAULT", "isTrashed": False, "isPinned": False, "isArchived": False,
                                   "title": title, "userEditedTimestampUsec": usec, "createdTimestampUsec": usec,
                                   "labels": [{"name": lab} for lab in labels]}
        if text is not None:
            note["textContent"] = text
        if items is not None:
            note["listContent"] = [{"text": t, "isChecked": c} for t, c in items]
        name = title.replace("—", "-").replace(" ", "_") + (f"({i})" if i else "")
        (OUT / f"{name}.json").write_text(json.dumps(note, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
