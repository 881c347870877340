"""The words of WhatsApp exports, as data for :mod:`importers.whatsapp`: system lines (encryption
notices, joins, deleted messages ...), media placeholders and "edited" markers, in the languages
WhatsApp speaks, and :func:`_media_line`, which reads a line against them; the parser decides what
to do with a line that matches."""

from __future__ import annotations

import re

from importers._common import strip_marks_fast

# Whole-body system messages (after marks are stripped, lowercased, trailing dot removed).
_SYSTEM_BODY_PATTERNS = (
            # encryption notices
            r"end-to-end",
            r"ende-zu-ende",
            r"de bout en bout",
            r"koncovým šifrováním",
            r"сквозным шифрованием",
            r"エンドツーエンド",
            r"de extremo a extremo",
            r"ponta a ponta",
            r"crittografia end-to-end",
            r"مشفرة تمام",
            # security code changes
            r"security code with .* changed",
            r"sicherheitsnummer für .* hat sich geändert",
            r"code de sécurité avec .* a changé",
            r"bezpečnostní kód",
            r"код безопасности",
            r"セキュリティコードが変更されました",
            r"beveiligingscode",
            r"código de seguridad",
            r"رمز أمان",
            # deleted messages
            r"^this message was deleted(?: by (?:an )?admin\b.*)?$",  # an admin's deletion names them
            r"^you deleted this message$",
            r"^diese nachricht wurde gelöscht$",
            r"^du hast diese nachricht gelöscht$",
            r"^ce message a été supprimé$",
            r"^vous avez supprimé ce message$",
            r"^tato zpráva byla (?:smazána|odstraněna)$",
            r"^tuto zprávu jste smazal",
            r"^данное сообщение удалено$",
            r"^вы удалили данное сообщение$",
            r"^この(?:メッセージは削除されました|メッセージを削除しました)。?$",
            r"^dit bericht is verwijderd$",
            r"^u hebt dit bericht verwijderd$",
            r"^(?:se eliminó este mensaje|eliminaste este mensaje|este mensaje fue eliminado)$",
            r"^(?:questo messaggio è stato eliminato|hai eliminato questo messaggio)$",
            r"^(?:mensagem apagada|você apagou esta mensagem|esta mensagem foi apagada)$",
            r"^(?:لقد حذَ?فت|تم حذف) هذه الرسالة$",
            # ... and of more languages (Android writes them without a mark to tell them by)
            r"^(?:bu mesaj silindi|bu mesajı sildiniz)$",
            r"^(?:ta wiadomość została usunięta|usunąłeś tę wiadomość|usunęłaś tę wiadomość)$",
            r"^(?:pesan ini telah dihapus|anda menghapus pesan ini|mesej ini telah dipadam|anda memadam mesej ini)$",
            r"^(?:це повідомлення видалено|ви видалили це повідомлення)$",
            r"^(?:tin nhắn này đã bị xóa|bạn đã xóa tin nhắn này)$",
            r"^(?:ข้อความนี้ถูกลบแล้ว|คุณลบข้อความนี้แล้ว)$",
            r"^(?:삭제된 메시지입니다|메시지를 삭제했습니다)$",
            r"^(?:此消息已删除|你删除了此消息|此訊息已刪除|你已刪除此訊息)$",
            r"^(?:הודעה זו נמחקה|מחקת הודעה זו)$",
            r"^(?:این پیام حذف شد|شما این پیام را حذف کردید)$",
            r"^(?:यह संदेश हटा दिया गया|आपने यह संदेश हटा दिया)$",
            r"^(?:acest mesaj a fost șters|ai șters acest mesaj)$",
            r"^(?:det här meddelandet raderades|du raderade det här meddelandet)$",
            r"^(?:denne besked blev slettet|du slettede denne besked|denne meldingen ble slettet|du slettet denne meldingen)$",
            r"^(?:tämä viesti poistettiin|poistit tämän viestin)$",
            r"^(?:ez az üzenet törölve lett|törölted ezt az üzenetet)$",
            r"^(?:αυτό το μήνυμα διαγράφηκε|διαγράψατε αυτό το μήνυμα)$",
            r"^(?:s'ha suprimit aquest missatge|has suprimit aquest missatge)$",
            r"^waiting for this message",
            # ... and in the languages whose other notices are read here (Android writes them as the sender's text)
            r"^(?:esperando (?:este|el) mensaje|warten auf diese nachricht|en attente de ce message|"
            r"aguardando (?:esta |a )?mensagem|in attesa di questo messaggio|wachten op dit bericht|"
            r"ожидание (?:этого )?сообщения|bu mesaj bekleniyor|menunggu pesan ini|oczekiwanie na t[ęą] wiadomość|"
            r"čekání na tuto zprávu|очікування (?:цього )?повідомлення|đang chờ tin nhắn này)",
            r"^missed (?:voice|video) call",
            r"^missed group (?:voice|video) call",
            # ... and in other languages (a whole message; iOS adds ", tap to call back" in its own words)
            r"^(?:chamada de (?:voz|vídeo) perdida|llamada de voz perdida|videollamada perdida|"
            r"verpasster (?:sprach|video)anruf|appel (?:vocal|vidéo) manqué|chiamata vocale persa|videochiamata persa|"
            r"gemiste (?:spraak|video-?)oproep|cevapsız (?:sesli|görüntülü) arama|пропущенный (?:аудио|видео)звонок|"
            r"nieodebrane połączenie (?:głosowe|wideo)|panggilan (?:suara|video) tak terjawab|"
            r"cuộc gọi (?:thoại|video) bị nhỡ|simu ya (?:sauti|video) (?:ambayo haikupokelewa|uliyokosa)|"
            # ... and of the other languages whose notices are read here (round 7)
            r"missat (?:röst|video)samtal|ubesvaret (?:tale|video)opkald|tapt (?:tale|video)anrop|"
            r"vastaamaton (?:ääni|video)puhelu|zmeškaný (?:hlasový hovor|videohovor)|пропущений (?:аудіо|відео)дзвінок|"
            r"αναπάντητη (?:φωνητική κλήση|βιντεοκλήση)|apel (?:vocal|video) pierdut|nem fogadott (?:hang|vide[oó])hívás|"
            r"(?:trucada de veu|videotrucada) perduda|부재중 (?:음성|영상) ?통화|未接(?:语音|视频)通话|未接(?:語音|視訊)通話|"
            r"مكالمة (?:صوتية|فيديو) فائتة|שיחת (?:קול|וידאו) שלא נענתה|"
            r"تماس (?:صوتی|تصویری) بی‌پاسخ|मिस्ड (?:वॉइस|वीडियो) कॉल)\b",
            # deleted, in Swahili
            r"^(?:ujumbe huu ulifutwa|ulifuta ujumbe huu)$",
            # round 8: deleted, in Bulgarian, Slovak, Croatian, Serbian, Lithuanian, Estonian, Latvian, Slovenian,
            # Filipino and Kazakh (Android writes them as the sender's whole text)
            r"^(?:това съобщение беше изтрито|изтрихте това съобщение|táto správa bola odstránená|"
            r"túto správu ste odstránili|ova poruka je izbrisana|izbrisali ste ovu poruku|ова порука је избрисана|"
            r"избрисали сте ову поруку|ši žinutė (?:buvo )?ištrinta|ištrynėte šią žinutę|see sõnum kustutati|"
            r"sa kustutasid selle sõnumi|šī ziņa tika izdzēsta|jūs izdzēsāt šo ziņu|to sporočilo je bilo izbrisano|"
            r"izbrisali ste to sporočilo|binura ang mensaheng ito|binura mo ang mensaheng ito|бұл хабар жойылды|"
            r"сіз бұл хабарды жойдыңыз)$",
            # ... and missed calls in those languages and Azerbaijani
            r"^(?:пропуснато (?:гласово|видео) обаждане|propušten[io] (?:glasovni|video) poziv|"
            r"пропуштен[иа]? (?:гласовни|видео) позив|praleistas (?:balso|vaizdo) skambutis|"
            r"vastamata (?:hääl|video)kõne|neatbildēts (?:balss|video) ?zvans|zgrešen[i]? (?:glasovni|video) ?klic|"
            r"hindi nasagot na (?:voice|video) call|қабылданбаған (?:дауыстық|бейне) қоңырау|"
            r"buraxılmış (?:səsli|video|görüntülü) zəng)\b",
            # round 9: deleted, in Macedonian, Afrikaans, Uzbek, Urdu, Georgian, Armenian, Nepali, Gujarati, Basque
            # and Galician (Android writes them as the sender's whole text)
            r"^(?:оваа порака е избришана|ја избришавте оваа порака|hierdie boodskap is uitgevee|"
            r"jy het hierdie boodskap uitgevee|bu xabar o[‘'ʻ`]chirildi|siz bu xabarni o[‘'ʻ`]chirdingiz|"
            r"یہ پیغام حذف کر دیا گیا(?: تھا)?|آپ نے یہ پیغام حذف کر دیا|ეს შეტყობინება წაიშალა|"
            r"თქვენ წაშალეთ ეს შეტყობინება|այս հաղորդագրությունը ջնջվել է|դուք ջնջեցիք այս հաղորդագրությունը|"
            r"यो सन्देश मेटाइयो|तपाईंले यो सन्देश मेटाउनुभयो|આ સંદેશ ડિલીટ કરવામાં આવ્યો(?: હતો)?|"
            r"તમે આ સંદેશ ડિલીટ કર્યો|mezu hau ezabatu egin da|mezu hau ezabatu duzu|eliminouse esta mensaxe|"
            r"eliminaches esta mensaxe)$",
            # ... and missed calls in those languages
            r"^(?:пропуштен (?:гласовен|видео) ?повик|gemiste (?:stem|video)oproep|"
            r"javobsiz (?:audio|video) qo[‘'ʻ`]ng[‘'ʻ`]iroq|مسڈ (?:وائس|ویڈیو) کال|"
            r"გამოტოვებული (?:ხმოვანი|ვიდეო) ზარი|բաց թողնված (?:ձայնային զանգ|տեսազանգ)|छुटेको (?:भ्वाइस|भिडियो) कल|"
            r"મિસ્ડ (?:વૉઇસ|વીડિયો) કૉલ|(?:ahots|bideo)-dei galdua|videochamada perdida)\b",
            # round 10: deleted, in Kannada, Malayalam, Lao, Kyrgyz, Irish, Kinyarwanda and European Portuguese
            # (Android writes them as the sender's whole text)
            r"^(?:ಈ ಸಂದೇಶವನ್ನು ಅಳಿಸಲಾಗಿದೆ|ನೀವು ಈ ಸಂದೇಶವನ್ನು ಅಳಿಸಿದ್ದೀರಿ|ഈ സന്ദേശം ഇല്ലാതാക്കി|"
            r"നിങ്ങൾ ഈ സന്ദേശം ഇല്ലാതാക്കി|ຂໍ້ຄວາມນີ້ຖືກລຶບແລ້ວ|ທ່ານໄດ້ລຶບຂໍ້ຄວາມນີ້|бул билдирүү өчүрүлдү|"
            r"сиз бул билдирүүнү өчүрдүңүз|scriosadh an teachtaireacht seo|scrios tú an teachtaireacht seo|"
            r"ubu butumwa bwasibwe|wasibye ubu butumwa|esta mensagem foi eliminada|eliminou esta mensagem)$",
            # ... and missed calls in those languages (Malayalam's words hold a zero-width non-joiner, or not)
            r"^(?:ಮಿಸ್ಡ್ (?:ವಾಯ್ಸ್|ವೀಡಿಯೊ) ಕಾಲ್|(?:വോയ്\u200c?സ്|വീഡിയോ) കോൾ നഷ്\u200c?ടമായി|"
            r"ສາຍໂທ(?:ສຽງ|ວິດີໂອ)ທີ່ບໍ່ໄດ້ຮັບ|кабыл алынбаган (?:үн|видео) чалуу|glao (?:gutha|físe) caillte|"
            r"ihamagara ry['’](?:ijwi|amashusho) ritakiriwe|chamada de (?:voz|vídeo) não atendida)(?!\w)",
            # round 16: deleted, in Tamil and Telugu (the loanword "மெசேஜ்"/"మెసేజ్" WhatsApp writes, or the native
            # word), Punjabi and Albanian (Android writes them as the sender's whole text)
            r"^(?:இந்த (?:மெசேஜ்|செய்தி) நீக்கப்பட்டது|நீங்கள் இந்த (?:மெசேஜை|செய்தியை) நீக்கினீர்கள்|"
            r"ఈ (?:మెసేజ్|సందేశం) తొలగించబడింది|మీరు ఈ (?:మెసేజ్‌ను|మెసేజ్ను|సందేశాన్ని) తొలగించారు|"
            r"ਇਹ ਸੁਨੇਹਾ ਮਿਟਾ ਦਿੱਤਾ ਗਿਆ(?: ਸੀ)?|ਤੁਸੀਂ ਇਹ ਸੁਨੇਹਾ ਮਿਟਾ ਦਿੱਤਾ|ky mesazh u fshi|e fshive këtë mesazh)$",
            # round 18: deleted, in Bengali, Marathi (the loanword "মেসেজ"/"मेसेज" WhatsApp writes, or the native
            # word) and Amharic (Android writes them as the sender's whole text)
            r"^(?:এই (?:মেসেজটি|বার্তাটি) মুছে ফেলা হয়েছে|আপনি এই (?:মেসেজটি|বার্তাটি) মুছে ফেলেছেন|"
            r"हा (?:मेसेज|संदेश) हटवला (?:गेला|आहे)|तुम्ही हा (?:मेसेज|संदेश) हटवला|"
            r"ይህ መልዕክት ተሰርዟል|ይህን መልዕክት ሰርዘዋል)$",
            # events: a person's RSVP ("Going to “Street dinner”"), written as their message on Android
            r"^(?:not )?going to [\"“„«‘].*[\"”“»’]$",
            # Meta AI's disclaimers in a chat it was added to
            r"^(?:messages are generated by ai|your messages to meta ai are)\b",
)
class _BodyPatterns:
    """The patterns above as two regexes: those anchored at the start (most: whole-body notices) are
    tried once, at the start; only the others are searched for. One alternation of all of them
    tried every anchored alternative at every position of every message."""

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self._start = re.compile("|".join(f"(?:{p[1:]})" for p in patterns if p.startswith("^")))
        self._anywhere = re.compile("|".join(p for p in patterns if not p.startswith("^")))

    def search(self, text: str) -> re.Match[str] | None:
        """A match of one of the patterns in ``text`` (as ``re.search`` of their alternation)."""
        return self._start.match(text) or self._anywhere.search(text)


_SYSTEM_BODY_RE = _BodyPatterns(_SYSTEM_BODY_PATTERNS)

# Author-less system lines: "<someone> created group ...", "You were added", ...
_SYSTEM_LINE_PATTERNS = (
            r"\bcreated (?:group|this group)\b",
            r"\badded\b",
            r"\bwere added\b",
            r"\b(?:left|removed)\b",
            r"\bjoined using\b",
            r"\bchanged (?:the|this|their|his|her|your)\b",
            r"\bchanged to\b",
            r"\bturned (?:on|off)\b",
            r"\bupdated the message timer\b",
            r"\bnow an admin\b",
            r"\bno longer an admin\b",
            r"\bsecurity code\b",
            r"\bend-to-end\b",
            r"\bencrypt",
            r"\bhat die gruppe\b",
            r"\bhinzugefügt\b",
            r"\bhat .* (?:erstellt|geändert|entfernt|verlassen)\b",
            r"\bcréé le groupe\b",
            r"\ba ajouté\b",
            r"\bcreó el grupo\b",
            r"\b(?:te )?añadió\b",
            r"\bsalió\b",
            r"\bheeft .* (?:aangemaakt|toegevoegd|gewijzigd|verwijderd)\b",
            r"\bсоздал",
            r"\bдобавил",
            r"\bвышел",
            r"\bизменил",
            r"\b(?:adicionou|removeu|saiu|criou o grupo|mudou (?:o|a|seu)|entrou usando)\b",
            r"\b(?:ha aggiunto|ha rimosso|è uscito|ha creato il gruppo|ha cambiato|ha modificato)\b",
            r"\b(?:a quitté|a retiré|a changé|a modifié|a rejoint)\b",
            r"\b(?:cambió|eliminó a|se unió)\b",
            r"\b(?:ist beigetreten|hat die gruppe verlassen)\b",
)

# (A quote mark before the first colon: no sender's name, a group event quoting a subject with a colon, such as
# "Du hast den Betreff von „Urlaub: Porto“ zu …", in any language: told by whatsapp._AUTHOR_RE, which takes no
# quote mark in a name; the apostrophe ’ of O’Brien is no quote.)
_SYSTEM_LINE_RE = re.compile("|".join(_SYSTEM_LINE_PATTERNS), re.IGNORECASE)

# Android: the whole line is a bracketed placeholder.
_MEDIA_BRACKET = {
    "media omitted",
    "medien ausgelassen",
    "medien weggelassen",
    "multimedia omitido",
    "multimedia omitidos",
    "archivo multimedia omitido",
    "media weggelaten",
    "média vynechány",
    "médias omis",
    "fichier multimédia absent",
    "médias absents",
    "без медиафайлов",
    "media omessi",
    "mídia oculta",
    "mídia omitida",
    "arquivo de mídia oculto",
    "media pominięte",
    "medya dahil edilmedi",
    "メディアなし",
    "미디어 파일 생략",
    "video note omitted",
    "gif omitted",
    "sticker omitted",
}
# Android placeholders of other languages: the whole line is "<...>" of a few words, one of
# them the word for media ("<Media jätetty pois>", "<Média kihagyva>", "<تم استبعاد الوسائط>").
_MEDIA_STEM_RE = re.compile(
    r"(?<![^\W\d_])(?:m[eé]e?di[aeijoá]|mídia|média|multim[eéè]dia|multivide|meáin|itangazamakuru)|меди[аяјум]|медіа|"
    r"мультимедиа|πολυμέσ|מדיה|մեդիա|"
    r"मीडिया|মিডিয়া|மீடியா|"
    r"미디어|メディア|媒体|媒體|影音|สื่อ|وسائط|رسانه|ميديا|phương tiện",
    re.IGNORECASE,
)
# iOS-style "image omitted" words; only trusted when WhatsApp marked the line with U+200E.
_OMITTED_WORD_LIST = (
    r"(?:omitted|omitid[oa]|weggelassen|ausgelassen|weggelaten|absente?s?|omis|manquante?s?|retiré|"
    r"vynechán[aoy]?|отсутствует|не добавлен[аоы]?|含まれていません|省略|omess[oa]|oculto|ocultad[oa]|"
    r"pominięt[oay]|dahil edilmedi|생략됨|הושמט[הו]?|udeladt|utelatt|utelämnad|utelämnat|jätetty pois|kihagyva|"
    r"tidak disertakan|omes[ao]|omis[ăa]|bị bỏ qua|izostavljen[aoi]?|vynechan[ýáé]|пропущен[оа]?|αφαιρέθηκε|παραλείφθηκε|"
    r"已略去|省略されました|छोड़ी गई|छोड़ा गया|छोड़े गए|"
    # round 15: Bengali, Swahili
    r"বাদ দেওয়া হয়েছে|imeachwa|imeondolewa)")
# iOS placeholders that put the "omitted" word first (Arabic "تم استبعاد الصورة", Thai "ละเว้นรูปภาพ") or say
# "removed" of a media noun (Persian "تصویر حذف شد", where "این پیام حذف شد" is a deleted message, a notice)
_OMITTED_FIRST = (r"^لم يتم إدراج|^تم حذف الملصق|^تم استبعاد|^ละเว้น|"
                  r"^(?:تصویر|عکس|ویدیو|ویدئو|صدا|پیام صوتی|استیکر|برچسب|سند|گیف|مخاطب) حذف شد")
_OMITTED_WORDS = re.compile(_OMITTED_WORD_LIST + r"\s*$|" + _OMITTED_FIRST, re.IGNORECASE)
# Android's "<...>" placeholders of a few words that start or end with "omitted" in the phone's language:
# "<View once message omitted>", "<Pominięto wiadomość do jednorazowego wyświetlenia>" (not "<he omitted it>").
_OMITTED_ANYWHERE = re.compile(rf"^{_OMITTED_WORD_LIST}(?![^\W\d_])|(?<![^\W\d_]){_OMITTED_WORD_LIST}\.?$",
                               re.IGNORECASE)
_OMITTED_EXACT_RE = re.compile(
    r"^(?:image|video|audio|sticker|gif|document|contact card|voice message) omitted$", re.IGNORECASE
)
# "<attached: 00000012-PHOTO-2024-03-12-21-06-10.jpg>": the word is the phone's language's, the file name is
# iOS's own (eight digits, a dash, then the name); with that name any label is read as "attached".
_ATTACHED_RE = re.compile(r"<(?:(?:attached|adjunto|anexado|angehängt|anhang|allegato|pièce jointe|bijlage|прикреплено|"
                          r"添付ファイル|첨부)\s?:\s?|[^<>:\n]{1,40}\s?:\s?(?=\d{8}-[^<>\n]*\.[A-Za-z0-9]{2,5}>))"
                          r"(?P<file>[^<>]+?)>", re.IGNORECASE)
_FILE_ATTACHED_RE = re.compile(
    r"^(?P<file>\S.*?\.[A-Za-z0-9]{2,5}) \((?:file attached|bestand bijgevoegd|soubor byl přiložen|файл добавлен|"
    r"archivo adjunto|datei angehängt|fichier joint|file allegato|arquivo anexado|ファイル添付|"
    # round 31: the words of more of Android's languages
    r"файл прикрепл[её]н|прикреплённый файл|קובץ מצורף|ملف مرفق|الملف مرفق|فایل پیوست(?: شد)?|dosya ekli|"
    r"dosya eklendi|załączony plik|plik załączony|συνημμένο αρχείο|tệp đính kèm|file terlampir|berkas terlampir|"
    r"fil bifogad|bifogad fil|vedhæftet fil|fil vedlagt|vedlagt fil|liitetty tiedosto|csatolt fájl|fișier atașat|"
    r"fitxer adjunt|ficheiro anexado|fail dilampirkan|फ़ाइल संलग्न|फ़ाइल अटैच की गई|ไฟล์แนบ|첨부 파일|첨부파일|"
    r"附件|已附加文件|附加檔案|прикріплений файл|файл прикріплено|приложен файл|priložený súbor|"
    r"priložena datoteka|pievienots fails|pridėtas failas|lisatud fail|přiložený soubor)\)$",
    re.IGNORECASE,
)
# The same notice in a language none of those words is of: a file WhatsApp named itself ("IMG-20240312-WA0003.jpg",
# "PTT-…-WA0001.opus") or a contact card ("Мама.vcf"), then a few words of letters in parentheses. A person's own
# "report.pdf (the final one)" names no such file and stays words.
_OWN_FILE_ATTACHED_RE = re.compile(
    r"^(?P<file>(?:[A-Z]{3}-\d{8}-WA\d{4,}\.[A-Za-z0-9]{2,5}|\S[^()\n]{0,80}\.vcf)) "
    r"\((?:[^\W\d_][^\W\d_'’.\u05f3\u05f4]*[.]?\s?){1,4}\)$",
    re.IGNORECASE,
)
# "<This message was edited>" and its translations: a short "<...>" closing a message whose words
# say "edited" (the participle, never the verb alone: "<edit this later>" is a person's text).
_EDITED_WORDS = (
    r"edited|editad[oa]|editó|editat|diedit|disunting|edytowan[aoy]?|bearbeitet|modifié|modificat[oa]|"
    r"bewerkt|düzenlendi|изменено|изменён[оа]?|отредактирован[оа]?|змінено|відредаговано|upraven[aáo]|"
    r"redigera[dt]|redigeret|redigert|muokattu|szerkesztett|επεξεργ[^\W\d_]*|נערכה|ערוכה|"
    r"تم تعديل|معدّ?لة|ویرایش شد|ویرایش‌شده|編集済み|編集されました|已编辑|已編輯|编辑过|編輯過|수정됨|"
    r"แก้ไขแล้ว|đã chỉnh sửa|đã được chỉnh sửa|संपादित|"
    # round 8: bg, hr, sr, lt, et, lv, sl, fil, kk, az
    r"редактиран[оа]|uređen[ao]|измењен[ао]|izmenjen[ao]|redaguot[ao]|muudeti|muudetud|rediģēt[sa]|urejen[oa]|"
    r"na-edit|өңделді|redaktə edil|"
    # round 9: mk, af, gl, gu, hy, ka, ne, ur, uz
    r"уреден[ао]?|geredigeer|editouse|સંપાદિત|խմբագրվ|რედაქტირებულ|सम्पादन गरिएको|ترمیم شدہ|tahrirla|"
    # round 10: kn, ml, lo, ky, ga, rw
    r"ಎಡಿಟ್ ಮಾಡಲಾಗಿದೆ|എഡിറ്റ് ചെയ്\u200c?തു|ແກ້ໄຂແລ້ວ|түзөтүлдү|in eagar|bwahinduwe|"
    # round 15: sw, bn
    r"[iu]mehaririwa|সম্পাদিত|"
    # round 16: sq (a cased script: the general rule of edited_tail does not reach it)
    r"u redaktua|redaktuar"
)
_EDITED_RE = re.compile(rf"\s*<(?=[^<>\n]{{1,60}}>\s*$)[^<>\n]*(?:{_EDITED_WORDS})[^<>\n]*>\s*$", re.IGNORECASE)


# A live location (Android and iOS write the notice, not the place): no words of the person, a share as media.
# The notice is a "live" word, a "location" word and at most a participle ("shared", "ended") of the phone's
# language, and nothing else: "Live-Standort geteilt", "Ubicación en tiempo real compartida", "Canlı konum
# paylaşıldı". A person's "share your live location?" has other words.
_LIVE_WORDS = (r"live|en tiempo real|em tempo real|in tempo reale|en direct|na żywo|canlı|terkini|secara langsung|"
               r"в реальном времени|наживо|trực tiếp|สด|실시간|リアルタイム|实时|即時|"
               r"v reálném čase|в реальному часі|σε πραγματικό χρόνο|în timp real|élő|i realtid|en temps réel|"
               r"reaaliaikainen|reaaliaikaisesti|i sanntid")
_LOCATION_WORDS = (r"location|ubicación|ubicacion|standort|position|localização|localizacao|posizione|locatie|"
                   r"lokalizac(?:ja|ję|ji)|konum|lokasi|геоданные|геолокаци[яю]|местоположение|vị trí|ตำแหน่ง|위치|位置情報|位置|"
                   r"plats|poloha|геодані|місцезнаходження|τοποθεσία|locație|locatie|hely|sijainti|posisjon|placering")
_LIVE_PARTICIPLES = (r"shared|ended|stopped|compartida|compartido|finalizada|geteilt|wird geteilt|beendet|partagée|"
                     r"terminée|compartilhada|partilhada|encerrada|condivisa|terminata|gedeeld|beëindigd|udostępniono|"
                     r"zakończono|paylaşıldı|paylaşımı sona erdi|dibagikan|berakhir|передаются|завершена|"
                     r"đã chia sẻ|共有しました|已共享|공유됨|delas|delad|sdílena|sdílená|надано|κοινοποιήθηκε|partajată|"
                     r"megosztva|jaettu|deles|deles nå|delt")
_LIVE_LOCATION_RE = re.compile(rf"(?:(?:{_LIVE_WORDS}|{_LOCATION_WORDS}|{_LIVE_PARTICIPLES})[\s\-:]*)+\.?",
                               re.IGNORECASE)
_LIVE_RE = re.compile(_LIVE_WORDS, re.IGNORECASE)
# The first letters a notice can start with (of every word of the lists: a superset), tried before the regex.
_LIVE_FIRST = frozenset(p[0].lower() for p in "|".join((_LIVE_WORDS, _LOCATION_WORDS, _LIVE_PARTICIPLES)).split("|")
                        if p and p[0] not in "()?[")
_LOCATION_RE = re.compile(_LOCATION_WORDS, re.IGNORECASE)


def _live_location(text: str) -> bool:
    """True for a live-location notice (see above). Only short lines are tried, anchored: every message
    passes here, and a search of the word lists through each one cost a fifth of the parse."""
    return (len(text) <= 64 and text[:1].lower() in _LIVE_FIRST and text.count(" ") < 6
            and _LIVE_LOCATION_RE.fullmatch(text) is not None and _LIVE_RE.search(text) is not None
            and _LOCATION_RE.search(text) is not None)


# A whole one-line message "<A few words>" of letters only, in a script of no case: WhatsApp's placeholder for what
# the export left out (media, a view-once photo, a cart, an order) in a language no list here holds
# ("<მედია გამოტოვებულია>"). In a script with capitals it cannot be told from a person's words by its look: a
# person writes "<Sigh loudly>", "<Insert joke here>" in sentence case as WhatsApp writes "<Media omitted>"; there
# only the lists (the media and "omitted" words of every cased language WhatsApp speaks) make a placeholder.
# "<div class=x>" or "<3" have other characters; a single "<Sigh>" is kept.
_PLACEHOLDER_RE = re.compile(r"<(?=[^<>]{3,60}>$)[^\W\d_][^<>\d_:/=\"'@#&;(){}\[\]]*\s[^<>\d_:/=\"'@#&;(){}\[\]]*>")


# Scripts that put no space between words (Thai, Lao, Myanmar, Khmer, Tibetan): there a placeholder is one run of
# letters and marks, "<ບໍ່ລວມມີເດຍ>" (Lao "media omitted"), of at least four characters.
_UNSPACED_PLACEHOLDER_RE = re.compile(r"<[\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff]{4,40}>")


def _cased(text: str) -> bool:
    """Whether ``text`` holds a letter of a script with capitals (Latin, Cyrillic, Greek, Armenian). Georgian's
    Mkhedruli letters have capitals in Unicode since 2018 but nobody writes them in a sentence: no case."""
    return any((c.isupper() or c.islower()) and not "\u10d0" <= c <= "\u10ff" for c in text)


def placeholder(text: str) -> bool:
    """True for a whole message that is a ``<…>`` placeholder of two to six words, or one run of a script
    without spaces (see above)."""
    text = text.strip()
    if text[:1] != "<":
        return False
    if _UNSPACED_PLACEHOLDER_RE.fullmatch(text) is not None:
        return _EDITED_RE.search(text) is None
    if _cased(text):
        return False  # a cased script: its placeholders are in the lists (see above), the rest a person's words
    words = text[1:-1].split()
    return _PLACEHOLDER_RE.fullmatch(text) is not None and 2 <= len(words) <= 6 and _EDITED_RE.search(text) is None


# An edit marker of a language no list above holds, in a script without capitals: a "<…>" of two to eight words
# closing a message after its words ("… <수정된 메시지입니다>", "… <ఈ మెసేజ్ ఎడిట్ చేయబడింది>"). As for
# placeholder(): a person writing such a script does not close a line with several words in angle brackets; in a
# cased script a person's "<sigh loudly>" looks like WhatsApp's "<Ky mesazh u redaktua>", and only the lists tell.
_TAIL_MARKER_RE = re.compile(r"<[^\W\d_][^<>\d_:/=\"'@#&;(){}\[\]]*\s[^<>\d_:/=\"'@#&;(){}\[\]]*>\s*$")


def edited_tail(line: str) -> str | None:
    """``line`` without an edit marker of a script without capitals closing it (see _TAIL_MARKER_RE above; the
    caller tries _EDITED_RE's words first), or None when it has none. Only the last "<" of the line is tried:
    linear in the line."""
    if not line.rstrip().endswith(">"):
        return None
    start = line.rfind("<")
    tail = line[start:]
    if start <= 0 or line[start - 1] not in " \u200e\u200f" or len(tail) > 64 or not _TAIL_MARKER_RE.fullmatch(tail):
        return None
    inner = tail.strip()[1:-1]
    before = line[:start].rstrip(" \u200e\u200f")
    if not before.strip() or _cased(inner) or not 2 <= len(inner.split()) <= 8:
        return None
    return line[:start].rstrip(" ")


def bare_omitted(text: str) -> bool:
    """An iOS placeholder without its U+200E mark ("Bild weggelassen", "image absente", "autocollant omis"):
    at most three words, the last an "omitted" word of the phone's language. Only an iOS chat's whole
    one-line message is tried (a chat an editor re-saved loses the marks); a person's sentence that holds
    the word ("Die Fliesen sind weggelassen worden?") is longer or does not end in it."""
    words = text.split()
    return 2 <= len(words) <= 3 and _OMITTED_WORDS.search(text.strip()) is not None


def _media_line(raw_line: str, clean_line: str) -> list[str] | None:
    """Media names if the line is (ends in) a placeholder, else None."""
    text = clean_line.strip()
    low = text.lower()
    if _live_location(text):
        return ["live location"]
    if low.startswith("<") and low.endswith(">"):
        inner = low[1:-1].strip()
        # a few words, or (Vietnamese writes every syllable apart) a short line of more of them
        few = len(inner.split()) <= 5 or (len(inner.split()) <= 8 and len(inner) <= 32)
        if inner in _MEDIA_BRACKET or (few and "<" not in inner and _MEDIA_STEM_RE.search(inner)) \
                or (len(inner.split()) <= 7 and "<" not in inner and _OMITTED_ANYWHERE.search(inner)):
            return [text[1:-1].strip()]
    m = _FILE_ATTACHED_RE.match(text) or _OWN_FILE_ATTACHED_RE.match(text)
    if m:
        return [m.group("file")]
    m = _ATTACHED_RE.search(text)
    if m and m.start() == 0 and m.end() == len(text):  # after a caption: the caption is kept (whatsapp._record)
        return [m.group("file").strip()]
    if _OMITTED_EXACT_RE.match(text):
        return [text]
    # iOS puts U+200E (U+200F in RTL locales) before the placeholder; trust the
    # localized "omitted" words only then.
    mark = "\u200e" if "\u200e" in raw_line else "\u200f"
    if mark in raw_line:
        tail = raw_line.rsplit(mark, 1)[-1]
        tail_clean = strip_marks_fast(tail)
        tail_clean = tail_clean.strip()
        if tail_clean and len(tail_clean.split()) <= 6 and _OMITTED_WORDS.search(tail_clean):
            head = strip_marks_fast(raw_line.rsplit(mark, 1)[0]).strip().rstrip("•").strip()
            # "Resume.pdf • 2 pages document omitted": keep the document name only.
            head = re.split(r"\s*•\s*", head)[0] if head else ""
            return [head or tail_clean]
    return None
