"""Writes heldout9_ampa_enex/Reuniones AMPA.enex: an Evernote notebook export (Spanish) of a primary school parents'
association's board (AMPA): meeting minutes every two weeks, a to-do list, a contacts note and one short note,
as Evernote writes an ``.enex`` (ENML in CDATA). Run once; the file is committed, this script says how it was made."""

from __future__ import annotations

import html
from pathlib import Path

OUT = Path(__file__).resolve().parent / "heldout9_ampa_enex" / "Reuniones AMPA.enex"

ATTEND = "Asistentes: Carmen Ruiz (presidenta), Marta López (tesorera), Javier Soto (secretario), Lucía Pérez, Andrés Gil."
CLOSE = "Se levanta la sesión a las 20:15. Próxima reunión en dos semanas, en la biblioteca del colegio."

# (created UTC, title, tags, lines; a line starting with "- " is a list item, "[ ] " / "[x] " a to-do)
NOTES: list[tuple[str, str, list[str], list[str]]] = [
    ("20260910T180000Z", "Reunión de junta 10/09", ["actas"], [
        ATTEND,
        "Orden del día:",
        "- Cuota anual: se mantiene en 20 € por familia, se cobra en octubre.",
        "- Mercadillo de Navidad: el viernes 11 de diciembre en el patio, de 16:30 a 19:30. Lucía coordina los puestos.",
        "- Toldo del patio de infantil: el sol de septiembre es insoportable. Javier pide presupuestos a dos empresas.",
        "- Excursión de fin de trimestre a una granja escuela: Andrés busca opciones.",
        CLOSE]),
    ("20260924T180000Z", "Reunión de junta 24/09", ["actas"], [
        ATTEND,
        "- Toldo del patio: presupuestos de Toldos Levante (3.200 €) y Sombras Mediterráneo (3.650 €). Se elige Toldos "
        "Levante por votación (4 a 1). Instalación prevista el lunes 2 de noviembre.",
        "- Biblioteca: voluntarios los martes y jueves de 16:30 a 17:30. Faltan familias para los jueves.",
        "- Mercadillo de Navidad: 9 familias apuntadas para puestos.",
        CLOSE]),
    ("20261008T180000Z", "Reunión de junta 08/10", ["actas"], [
        ATTEND,
        "- Tesorería: Marta López deja el cargo en diciembre porque se muda a Bilbao. Paula Gil se ofrece como "
        "tesorera; se votará en la asamblea general.",
        "- Cuota anual: el seguro de actividades sube, la cuota pasa a 25 € por familia a partir de este curso.",
        "- Robótica extraescolar: empieza el martes 12 de enero, 18 plazas, 30 € al mes, los martes de 16:30 a 17:30.",
        "- Biblioteca: ya hay voluntarios para los jueves.",
        CLOSE]),
    ("20261009T071500Z", "Pendientes", ["tareas"], [
        "[x] Llamar a Toldos Levante para confirmar medidas",
        "[ ] Carteles del mercadillo",
        "[ ] Pedir al colegio el gimnasio para la asamblea",
        "[x] Mandar el acta del 08/10 a las familias"]),
    ("20261022T180000Z", "Reunión de junta 22/10", ["actas"], [
        ATTEND,
        "- Toldo del patio: Toldos Levante retrasa la instalación al lunes 16 de noviembre, falta la lona.",
        "- Excursión: granja escuela La Alquería (Llíria), el viernes 4 de diciembre, autobús 320 €, 52 niños de infantil.",
        "- Mercadillo de Navidad: 14 familias apuntadas, mesas prestadas por el ayuntamiento.",
        "- Robótica: 11 inscritos de 18 plazas.",
        CLOSE]),
    ("20261105T180000Z", "Reunión de junta 05/11", ["actas"], [
        ATTEND,
        "- Mercadillo de Navidad: el viernes 11 de diciembre hay claustro de evaluación, el colegio no deja el patio. "
        "Se cambia al jueves 17 de diciembre, mismo horario (16:30 a 19:30).",
        "- Asamblea general: jueves 26 de noviembre a las 18:30 en el gimnasio del colegio. Orden del día: cuentas, "
        "elección de tesorera (Paula Gil), cuota de 25 €.",
        "- Excursión a La Alquería: 47 autorizaciones entregadas.",
        CLOSE]),
    ("20261106T090000Z", "Contactos", ["contactos"], [
        "- Toldos Levante: Raúl Ibáñez, 961 234 567",
        "- Granja escuela La Alquería: Inés Marco, reservas",
        "- Director del CEIP Los Almendros: Tomás Navarro",
        "- Ayuntamiento (préstamo de mesas): Concejalía de Educación"]),
    ("20261116T173000Z", "Toldo instalado", ["toldo"], [
        "Toldos Levante ha instalado hoy el toldo del patio de infantil. Factura de 3.200 €: pagado el 50 %, "
        "el resto antes del lunes 30 de noviembre."]),
    ("20261119T180000Z", "Reunión de junta 19/11", ["actas"], [
        ATTEND,
        "- Asamblea general del jueves 26 de noviembre: Javier prepara las cuentas, Carmen presenta el curso.",
        "- Cuota de 25 €: se cobra en enero, fecha límite el domingo 31 de enero.",
        "- Robótica: 16 inscritos, empieza el martes 12 de enero.",
        "- Mercadillo de Navidad del jueves 17 de diciembre: 18 puestos, Lucía hace los carteles.",
        CLOSE]),
]


def enml(lines: list[str]) -> str:
    """The note's body as Evernote writes it: one <div> a line, lists as <ul><li>, to-dos as <en-todo/>."""
    out: list[str] = []
    items: list[str] = []
    for line in lines + [""]:
        if line.startswith("- "):
            items.append(f"<li><div>{html.escape(line[2:])}</div></li>")
            continue
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items = []
        if line.startswith(("[ ] ", "[x] ")):
            out.append(f'<div><en-todo checked="{"true" if line[1] == "x" else "false"}"/>{html.escape(line[4:])}</div>')
        elif line:
            out.append(f"<div>{html.escape(line)}</div>")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            '<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">\n'
            "<en-note>" + "".join(out) + "</en-note>")


def main() -> None:
    """Write the one notebook file."""
    OUT.parent.mkdir(parents=True, exist_ok=True)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">',
             '<en-export export-date="20261120T090000Z" application="Evernote" version="10.98.4">']
    for created, title, tags, lines in NOTES:
        parts.append("  <note>")
        parts.append(f"    <title>{html.escape(title)}</title>")
        parts.append(f"    <created>{created}</created>")
        parts.append(f"    <updated>{created}</updated>")
        parts.extend(f"    <tag>{html.escape(t)}</tag>" for t in tags)
        parts.append("    <note-attributes><author>Javier Soto</author></note-attributes>")
        parts.append(f"    <content><![CDATA[{enml(lines)}]]></content>")
        parts.append("  </note>")
    parts.append("</en-export>")
    OUT.write_text("\n".join(parts) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
