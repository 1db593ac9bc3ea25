<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="de_DE">
<context>
    <name>Dialog</name>
    <message>
        <source>{server} asks through the local program {program}.</source>
        <translation>{server} fragt über das lokale Programm {program}.</translation>
    </message>
    <message>
        <source>{server} asks through the local program {program}: {message}</source>
        <translation>{server} fragt über das lokale Programm {program}: {message}</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>“{claim}”</source>
        <translation>„{claim}“</translation>
    </message>
    <message>
        <source>{summary} — elicit-tray</source>
        <extracomment>How long an expired dialog stays to say so before it closes by itself (ms). Shown without the focus because the user was typing; it waits to be chosen.</extracomment>
        <translation>{summary} — elicit-tray</translation>
    </message>
    <message>
        <source>Message from the server</source>
        <translation>Nachricht des Servers</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>Say no to this request (Alt+D)</source>
        <translation>Diese Anfrage ablehnen (Alt+D)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Dismiss without answering (Esc)</source>
        <translation>Schließen, ohne zu antworten (Esc)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
    <message>
        <source>An unnamed MCP server</source>
        <extracomment>id (``field-&lt;name&gt;-error``) -&gt; inline error label; filled by the dialogs that have fields. The user-set timeout, once :meth:`start_timeout` ran.</extracomment>
        <translation>Ein MCP-Server ohne Namen</translation>
    </message>
    <message>
        <source>Requesting server</source>
        <translation>Anfragender Server</translation>
    </message>
    <message>
        <source>That is what the server says it is; not verified.</source>
        <translation>So nennt sich der Server selbst; nicht geprüft.</translation>
    </message>
    <message>
        <source>The server did not say who it is.</source>
        <translation>Der Server hat nicht angegeben, wer er ist.</translation>
    </message>
    <message>
        <source>Relayed by a program that says it is {client}.</source>
        <translation>Weitergeleitet von einem Programm, das angibt, {client} zu sein.</translation>
    </message>
    <message>
        <source>Asked by the local program {program}</source>
        <translation>Gefragt vom lokalen Programm {program}</translation>
    </message>
    <message>
        <source>(unknown: the system did not tell)</source>
        <translation>(unbekannt: das System gibt es nicht an)</translation>
    </message>
    <message>
        <source>Requesting program</source>
        <translation>Anfragendes Programm</translation>
    </message>
    <message>
        <source>Cancels by itself in {time}</source>
        <extracomment>How often the shown time is brought up to date (ms).</extracomment>
        <translation>Bricht von selbst ab in {time}</translation>
    </message>
    <message>
        <source>Timer stopped</source>
        <translation>Zeitgeber angehalten</translation>
    </message>
    <message>
        <source>This request is cancelled in {seconds} seconds. Press any key in this window to stop the timer.</source>
        <translation>Diese Anfrage wird in {seconds} Sekunden abgebrochen. Drücken Sie eine beliebige Taste in diesem Fenster, um den Zeitgeber anzuhalten.</translation>
    </message>
    <message>
        <source>This request is no longer waiting: the program that asked has cancelled it or gone away. Nothing was sent. This window closes by itself.</source>
        <translation>Diese Anfrage wartet nicht mehr: Das fragende Programm hat sie abgebrochen oder wurde beendet. Es wurde nichts gesendet. Dieses Fenster schließt sich von selbst.</translation>
    </message>
    <message>
        <source>Keys typed here are ignored until you click in this window or press {key} in it.</source>
        <translation>Tasten, die hier gedrückt werden, zählen erst, wenn Sie in dieses Fenster klicken oder darin {key} drücken.</translation>
    </message>
</context>
<context>
    <name>FormDialog</name>
    <message>
        <source>{field}: {error}</source>
        <translation>{field}: {error}</translation>
    </message>
    <message>
        <source>&amp;Accept</source>
        <extracomment>Titles longer than this (characters) put every label above its field. Rows built before the dialog is first shown (more than a screen holds). Rows built per event-loop turn after that.</extracomment>
        <translation>&amp;Bestätigen</translation>
    </message>
    <message>
        <source>This form seems to ask for a secret ({fields}). MCP forbids servers to ask for passwords, tokens or keys in a form. Decline unless you are sure.</source>
        <extracomment>Property names of the fields the secret warning names (judged by name, title and kind).</extracomment>
        <translation>Dieses Formular scheint nach einem Geheimnis zu fragen ({fields}). MCP verbietet Servern, in Formularen nach Passwörtern, Tokens oder Schlüsseln zu fragen. Lehnen Sie ab, wenn Sie nicht sicher sind.</translation>
    </message>
    <message>
        <source>Fields marked * are required.</source>
        <translation>Mit * markierte Felder sind Pflichtfelder.</translation>
    </message>
    <message>
        <source>Please correct the highlighted field.</source>
        <translation>Bitte korrigieren Sie das markierte Feld.</translation>
    </message>
    <message>
        <source>Please correct the highlighted fields.</source>
        <translation>Bitte korrigieren Sie die markierten Felder.</translation>
    </message>
    <message>
        <source>This answer does not fit the request: {problems}</source>
        <translation>Diese Antwort passt nicht zur Anfrage: {problems}</translation>
    </message>
</context>
<context>
    <name>History</name>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>Letzte 90 Tage</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Angenommen</translation>
    </message>
    <message>
        <source>Declined</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Cancelled (Escape)</source>
        <translation>Abgebrochen (Escape)</translation>
    </message>
    <message>
        <source>Cancelled (button)</source>
        <translation>Abgebrochen (Schaltfläche)</translation>
    </message>
    <message>
        <source>Cancelled (window closed)</source>
        <translation>Abgebrochen (Fenster geschlossen)</translation>
    </message>
    <message>
        <source>Cancelled (from the tray)</source>
        <translation>Abgebrochen (über die Leiste)</translation>
    </message>
    <message>
        <source>Cancelled (timeout)</source>
        <translation>Abgebrochen (Zeitlimit)</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Verfallen</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Invalid request</source>
        <translation>Ungültige Anfrage</translation>
    </message>
    <message>
        <source>Refused (busy)</source>
        <translation>Abgewiesen (ausgelastet)</translation>
    </message>
    <message>
        <source>Waiting for an answer</source>
        <translation>Wartet auf Antwort</translation>
    </message>
    <message>
        <source>Interrupted (the app stopped)</source>
        <translation>Unterbrochen (die App wurde beendet)</translation>
    </message>
    <message>
        <source>All outcomes</source>
        <translation>Alle Ergebnisse</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>Eingegangen</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>Prozess</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <source>form</source>
        <translation>Formular</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Einzelheit</translation>
    </message>
    <message>
        <source>Shown</source>
        <translation>Angezeigt</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>Beantwortet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} s</translation>
    </message>
    <message>
        <source>Server (self-reported)</source>
        <translation>Server (Selbstauskunft)</translation>
    </message>
    <message>
        <source>Client (self-reported)</source>
        <translation>Client (Selbstauskunft)</translation>
    </message>
    <message>
        <source>Process id</source>
        <translation>Prozess-ID</translation>
    </message>
    <message>
        <source>Executable</source>
        <translation>Programmdatei</translation>
    </message>
    <message>
        <source>User id</source>
        <translation>Benutzer-ID</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Address check</source>
        <translation>Adressprüfung</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Warnungen</translation>
    </message>
    <message>
        <source>(looks like a secret: never kept)</source>
        <translation>(sieht nach einem Geheimnis aus: nie gespeichert)</translation>
    </message>
    <message>
        <source>(not kept)</source>
        <translation>(nicht gespeichert)</translation>
    </message>
    <message>
        <source>Field {title}: {value}</source>
        <translation>Feld {title}: {value}</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>server, question, address, field…</source>
        <translation>Server, Frage, Adresse, Feld…</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;Suchen:</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Shows the decisions whose server, question, address, process or fields contain this text.</source>
        <translation>Zeigt die Entscheidungen, deren Server, Frage, Adresse, Prozess oder Felder diesen Text enthalten.</translation>
    </message>
    <message>
        <source>Se&amp;rver:</source>
        <translation>Se&amp;rver:</translation>
    </message>
    <message>
        <source>Shows the decisions of one server only.</source>
        <translation>Zeigt nur die Entscheidungen eines Servers.</translation>
    </message>
    <message>
        <source>&amp;Outcome:</source>
        <translation>&amp;Ergebnis:</translation>
    </message>
    <message>
        <source>Shows the decisions with this outcome only.</source>
        <translation>Zeigt nur die Entscheidungen mit diesem Ergebnis.</translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>&amp;Zeitraum:</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Shows the decisions received in this period only.</source>
        <translation>Zeigt nur die Entscheidungen, die in diesem Zeitraum eingingen.</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Newest first. Use the arrow keys to choose a decision; its details follow.</source>
        <translation>Neueste zuerst. Mit den Pfeiltasten eine Entscheidung wählen; ihre Einzelheiten folgen.</translation>
    </message>
    <message>
        <source>&amp;Table of decisions:</source>
        <translation>&amp;Tabelle der Entscheidungen:</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Einzelheiten</translation>
    </message>
    <message>
        <source>Everything kept about the chosen decision.</source>
        <translation>Alles, was zur gewählten Entscheidung gespeichert ist.</translation>
    </message>
    <message>
        <source>D&amp;etails:</source>
        <translation>Einzel&amp;heiten:</translation>
    </message>
    <message>
        <source>Number of decisions shown</source>
        <translation>Anzahl der gezeigten Entscheidungen</translation>
    </message>
    <message>
        <source>Export &amp;JSON…</source>
        <translation>&amp;JSON exportieren…</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>&amp;CSV exportieren…</translation>
    </message>
    <message>
        <source>C&amp;lear history…</source>
        <translation>Verlauf &amp;leeren…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Saves the decisions shown to a JSON file.</source>
        <translation>Speichert die gezeigten Entscheidungen in einer JSON-Datei.</translation>
    </message>
    <message>
        <source>Saves the decisions shown to a CSV file.</source>
        <translation>Speichert die gezeigten Entscheidungen in einer CSV-Datei.</translation>
    </message>
    <message>
        <source>Deletes every decision kept, after asking.</source>
        <translation>Löscht nach Rückfrage alle gespeicherten Entscheidungen.</translation>
    </message>
    <message>
        <source>Closes this window.</source>
        <translation>Schließt dieses Fenster.</translation>
    </message>
    <message>
        <source>The history is off (Settings…).</source>
        <translation>Der Verlauf ist aus (Einstellungen…).</translation>
    </message>
    <message>
        <source>The history is locked by another program; it is read again in a moment.</source>
        <translation>Der Verlauf ist von einem anderen Programm gesperrt; er wird gleich erneut gelesen.</translation>
    </message>
    <message>
        <source>1 decision</source>
        <translation>1 Entscheidung</translation>
    </message>
    <message>
        <source>{count} decisions</source>
        <translation>{count} Entscheidungen</translation>
    </message>
    <message>
        <source>All servers</source>
        <translation>Alle Server</translation>
    </message>
    <message>
        <source>Export the decisions shown</source>
        <translation>Gezeigte Entscheidungen exportieren</translation>
    </message>
    <message>
        <source>Cannot write {path}: {error}</source>
        <translation>{path} kann nicht geschrieben werden: {error}</translation>
    </message>
    <message>
        <source>Delete every decision kept? This cannot be undone.</source>
        <translation>Alle gespeicherten Entscheidungen löschen? Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>Verlauf leeren</translation>
    </message>
</context>
<context>
    <name>Presenter</name>
    <message>
        <source>{count} requests are waiting.</source>
        <translation>{count} Anfragen warten.</translation>
    </message>
    <message>
        <source>1 more request is waiting. It opens when a dialog is answered, or choose it in the elicit-tray menu.</source>
        <translation>1 weitere Anfrage wartet. Sie öffnet sich, sobald ein Dialog beantwortet ist, oder wählen Sie sie im Menü von elicit-tray.</translation>
    </message>
    <message>
        <source>{count} more requests are waiting. They open one by one as dialogs are answered, or choose one in the elicit-tray menu.</source>
        <translation>{count} weitere Anfragen warten. Sie öffnen sich nacheinander, sobald Dialoge beantwortet sind, oder wählen Sie eine im Menü von elicit-tray.</translation>
    </message>
    <message>
        <source>A local program</source>
        <extracomment>Unicode isolates around a value placed inside a translated sentence (UAX #9): first-strong, left-to-right, and their end. Server and OS strings have their own bidi controls escaped (display.py), so these are the only ones.</extracomment>
        <translation>Ein lokales Programm</translation>
    </message>
    <message>
        <source>{who} asks for your input. Go to the request&apos;s window (click it, switch to it, or choose it in the elicit-tray menu), then press {key} to answer with the keyboard.</source>
        <translation>{who} bittet um Ihre Eingabe. Gehen Sie zum Fenster der Anfrage (klicken Sie darauf, wechseln Sie dorthin oder wählen Sie es im Menü von elicit-tray) und drücken Sie dann {key}, um mit der Tastatur zu antworten.</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Settings</source>
        <extracomment>How often the history's retention is applied while the app runs (a day, in ms). Where "Start at login" (XDG Autostart) applies. Command-line options of each setting (shown beside a setting the command line fixed). Languages offered: code ("" follows the system) and the language's own name.</extracomment>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Start elicit-tray at login</source>
        <translation>elicit-tray beim Anmelden &amp;starten</translation>
    </message>
    <message>
        <source>Adds or removes the autostart entry of your desktop.</source>
        <translation>Legt den Autostart-Eintrag Ihres Desktops an oder entfernt ihn.</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>An untouched dialog answers cancel after this many seconds; a countdown shows it. 0: never.</source>
        <translation>Ein unberührter Dialog antwortet nach so vielen Sekunden mit Abbrechen; ein Countdown zeigt es an. 0: nie.</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>&amp;Consent delay:</source>
        <translation>Zustimmungs&amp;verzögerung:</translation>
    </message>
    <message>
        <source>Consent delay</source>
        <translation>Zustimmungsverzögerung</translation>
    </message>
    <message>
        <source>Buttons stay disarmed this long after a dialog appears or regains focus, so a key meant for another window cannot answer it. From {low} to {high} ms.</source>
        <translation>So lange bleiben Schaltflächen gesperrt, nachdem ein Dialog erscheint oder den Fokus zurückerhält, damit eine Taste für ein anderes Fenster ihn nicht beantwortet. Von {low} bis {high} ms.</translation>
    </message>
    <message>
        <source>Keep a &amp;history of decisions</source>
        <translation>Einen Verlauf der Entscheidungen &amp;führen</translation>
    </message>
    <message>
        <source>Keep the &amp;values chosen in forms (yes/no, options, numbers, dates)</source>
        <translation>Gewählte &amp;Werte aus Formularen speichern (Ja/Nein, Optionen, Zahlen, Daten)</translation>
    </message>
    <message>
        <source>Keep &amp;free text typed in forms (never secret-looking fields)</source>
        <translation>Frei&amp;text aus Formularen speichern (nie geheim wirkende Felder)</translation>
    </message>
    <message>
        <source>Keep the &amp;query strings of addresses</source>
        <translation>&amp;Query-Strings von Adressen speichern</translation>
    </message>
    <message>
        <source>Records every request and its answer in a private database on this computer.</source>
        <translation>Speichert jede Anfrage und ihre Antwort in einer privaten Datenbank auf diesem Computer.</translation>
    </message>
    <message>
        <source>Without it the history keeps each field's title but not what was chosen. Never the value of a field that looks like it asks for a secret.</source>
        <translation>Ohne diese Option speichert der Verlauf den Titel jedes Feldes, aber nicht die Auswahl. Nie den Wert eines Feldes, das nach einem Geheimnis zu fragen scheint.</translation>
    </message>
    <message>
        <source>Typed text can hold anything: names, addresses, a pasted token. Without it the history keeps only the choices made.</source>
        <translation>Getippter Text kann alles enthalten: Namen, Adressen, ein eingefügtes Token. Ohne diese Option speichert der Verlauf nur die getroffene Auswahl.</translation>
    </message>
    <message>
        <source>Query strings and fragments often hold tokens; without it only scheme, host and path are kept.</source>
        <translation>Query-Strings und Fragmente enthalten oft Tokens; ohne diese Option werden nur Schema, Host und Pfad gespeichert.</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>Forever</source>
        <translation>Für immer</translation>
    </message>
    <message>
        <source>&amp;Keep decisions for:</source>
        <translation>Entscheidungen &amp;aufbewahren:</translation>
    </message>
    <message>
        <source>Retention</source>
        <translation>Aufbewahrung</translation>
    </message>
    <message>
        <source>Older decisions are deleted at start and once a day. 0: kept forever.</source>
        <translation>Ältere Entscheidungen werden beim Start und einmal täglich gelöscht. 0: für immer aufbewahrt.</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>S&amp;prache:</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>The language of new dialogs and windows.</source>
        <translation>Die Sprache neuer Dialoge und Fenster.</translation>
    </message>
    <message>
        <source>Where MCP clients reach elicit-tray (ELICIT_TRAY_SOCKET or --socket).</source>
        <translation>Wo MCP-Clients elicit-tray erreichen (ELICIT_TRAY_SOCKET oder --socket).</translation>
    </message>
    <message>
        <source>C&amp;opy</source>
        <translation>K&amp;opieren</translation>
    </message>
    <message>
        <source>Copy the socket path</source>
        <translation>Socket-Pfad kopieren</translation>
    </message>
    <message>
        <source>Soc&amp;ket in use:</source>
        <translation>Verwendeter Soc&amp;ket:</translation>
    </message>
    <message>
        <source>Socket in use</source>
        <translation>Verwendeter Socket</translation>
    </message>
    <message>
        <source>Changes apply at once.</source>
        <translation>Änderungen gelten sofort.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Set on the command line ({option}).</source>
        <translation>Auf der Befehlszeile gesetzt ({option}).</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>1 request waiting</source>
        <extracomment>``history`` or ``settings``: the tray app opens that window as it starts. Where "Start at login" (XDG Autostart) applies.</extracomment>
        <translation>1 Anfrage wartet</translation>
    </message>
    <message>
        <source>{count} requests waiting</source>
        <translation>{count} Anfragen warten</translation>
    </message>
    <message>
        <source>elicit-tray: no requests waiting</source>
        <translation>elicit-tray: keine wartenden Anfragen</translation>
    </message>
    <message>
        <source>A server asks for your input</source>
        <translation>Ein Server bittet um Ihre Eingabe</translation>
    </message>
    <message>
        <source>No requests waiting</source>
        <translation>Keine wartenden Anfragen</translation>
    </message>
    <message>
        <source>{summary} (not shown yet)</source>
        <translation>{summary} (noch nicht angezeigt)</translation>
    </message>
    <message>
        <source>&amp;Dismiss all (answer cancel)</source>
        <translation>Alle &amp;verwerfen (Antwort: Abbrechen)</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>Verl&amp;auf…</translation>
    </message>
    <message>
        <source>Se&amp;ttings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Start at login</source>
        <translation>Beim Anmelden &amp;starten</translation>
    </message>
    <message>
        <source>&amp;Quit elicit-tray</source>
        <translation>elicit-tray &amp;beenden</translation>
    </message>
</context>
<context>
    <name>UrlDialog</name>
    <message>
        <source>The server asks you to open this address in your web browser:</source>
        <extracomment>Opens an ASCII href in the system browser; returns whether the system accepted it. Explicit bidi isolates (UAX #9): LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE. Characters that separate the parts of a URL (labels, path segments, query fields). Pixels kept free at the end of a line for rounding between metrics and the rich-text layout.</extracomment>
        <translation>Der Server bittet Sie, diese Adresse in Ihrem Webbrowser zu öffnen:</translation>
    </message>
    <message>
        <source>Full address</source>
        <translation>Vollständige Adresse</translation>
    </message>
    <message>
        <source>The browser will open exactly this address:</source>
        <translation>Der Browser öffnet genau diese Adresse:</translation>
    </message>
    <message>
        <source>Website:</source>
        <translation>Website:</translation>
    </message>
    <message>
        <source>Website {host}, which belongs to {site}</source>
        <translation>Website {host}, gehört zu {site}</translation>
    </message>
    <message>
        <source>This address belongs to the site {site}.</source>
        <translation>Diese Adresse gehört zur Website {site}.</translation>
    </message>
    <message>
        <source>The name contains international characters. Decoded (Unicode) it reads “{unicode}”; its coded form (Punycode) is {punycode}.</source>
        <translation>Der Name enthält internationale Zeichen. Entschlüsselt (Unicode) lautet er „{unicode}“; seine codierte Form (Punycode) ist {punycode}.</translation>
    </message>
    <message>
        <source>This address cannot be opened (its scheme is “{scheme}:”).</source>
        <translation>Diese Adresse kann nicht geöffnet werden (ihr Schema ist „{scheme}:“).</translation>
    </message>
    <message>
        <source>This address cannot be opened.</source>
        <translation>Diese Adresse kann nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>Be careful before opening this address.</source>
        <translation>Seien Sie vorsichtig, bevor Sie diese Adresse öffnen.</translation>
    </message>
    <message>
        <source>&amp;Open in browser</source>
        <translation>Im Browser ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Open the address in your web browser; the server is told you agreed</source>
        <translation>Die Adresse im Webbrowser öffnen; der Server erfährt, dass Sie zugestimmt haben</translation>
    </message>
    <message>
        <source>The web browser could not be started. You can copy the address above, or decline or cancel.</source>
        <translation>Der Webbrowser konnte nicht gestartet werden. Sie können die Adresse oben kopieren, ablehnen oder abbrechen.</translation>
    </message>
    <message>
        <source>Opened in your browser. Waiting for the server to confirm that you have finished… You can close this window at any time.</source>
        <translation>Im Browser geöffnet. Warten auf die Bestätigung des Servers, dass Sie fertig sind … Sie können dieses Fenster jederzeit schließen.</translation>
    </message>
    <message>
        <source>The server confirmed that you have finished. This window closes by itself.</source>
        <translation>Der Server hat bestätigt, dass Sie fertig sind. Dieses Fenster schließt sich von selbst.</translation>
    </message>
</context>
<context>
    <name>UrlReasons</name>
    <message>
        <source>This is not a valid web address.</source>
        <translation>Dies ist keine gültige Webadresse.</translation>
    </message>
    <message>
        <source>The address contains hidden, invisible or space characters.</source>
        <translation>Die Adresse enthält versteckte, unsichtbare oder Leerzeichen.</translation>
    </message>
    <message>
        <source>The address contains characters that reverse the direction of the text shown.</source>
        <translation>Die Adresse enthält Zeichen, die die Richtung des angezeigten Textes umkehren.</translation>
    </message>
    <message>
        <source>The address is written in a way that browsers and other programs could read as different websites.</source>
        <translation>Die Adresse ist so geschrieben, dass Browser und andere Programme sie als verschiedene Websites lesen könnten.</translation>
    </message>
    <message>
        <source>This is not a web page address (only http and https can be opened).</source>
        <translation>Dies ist keine Webseiten-Adresse (nur http und https können geöffnet werden).</translation>
    </message>
    <message>
        <source>The address contains a malformed international name.</source>
        <translation>Die Adresse enthält einen fehlerhaften internationalen Namen.</translation>
    </message>
    <message>
        <source>The connection to this site is not encrypted.</source>
        <translation>Die Verbindung zu dieser Website ist nicht verschlüsselt.</translation>
    </message>
    <message>
        <source>The address contains a user name before the real site name, which can make it look like a different site.</source>
        <translation>Die Adresse enthält vor dem echten Website-Namen einen Benutzernamen, wodurch sie wie eine andere Website aussehen kann.</translation>
    </message>
    <message>
        <source>The address is a numeric internet address rather than a site name.</source>
        <translation>Die Adresse ist eine numerische Internetadresse statt eines Website-Namens.</translation>
    </message>
    <message>
        <source>The numeric address is written in an unusual form.</source>
        <translation>Die numerische Adresse ist in einer ungewöhnlichen Form geschrieben.</translation>
    </message>
    <message>
        <source>The address points to this computer or to a private or local network.</source>
        <translation>Die Adresse zeigt auf diesen Computer oder in ein privates oder lokales Netz.</translation>
    </message>
    <message>
        <source>The site name is written with unusual characters that the browser converts to a different spelling.</source>
        <translation>Der Website-Name ist mit ungewöhnlichen Zeichen geschrieben, die der Browser in eine andere Schreibweise umwandelt.</translation>
    </message>
    <message>
        <source>The site name ends with an extra dot.</source>
        <translation>Der Website-Name endet mit einem zusätzlichen Punkt.</translation>
    </message>
    <message>
        <source>The site name is unusually long.</source>
        <translation>Der Website-Name ist ungewöhnlich lang.</translation>
    </message>
    <message>
        <source>The address contains the name of a well-known site, but it leads to a different site.</source>
        <translation>Die Adresse enthält den Namen einer bekannten Website, führt aber zu einer anderen.</translation>
    </message>
    <message>
        <source>The address spells out {domain} with dots or dashes, but it leads to a different site.</source>
        <translation>Die Adresse schreibt {domain} mit Punkten oder Bindestrichen aus, führt aber zu einer anderen Website.</translation>
    </message>
    <message>
        <source>The name of {domain} is only part of this address: it leads to a different site.</source>
        <translation>Der Name von {domain} ist nur ein Teil dieser Adresse: Sie führt zu einer anderen Website.</translation>
    </message>
    <message>
        <source>The site name joins the name of {domain} with other words, but it is not that site.</source>
        <translation>Der Website-Name verbindet den Namen von {domain} mit anderen Wörtern, ist aber nicht diese Website.</translation>
    </message>
    <message>
        <source>The site name uses international characters that could be mistaken for other letters, so it is shown in its coded form.</source>
        <translation>Der Website-Name verwendet internationale Zeichen, die mit anderen Buchstaben verwechselt werden könnten; er wird daher in seiner codierten Form angezeigt.</translation>
    </message>
    <message>
        <source>The address contains characters from several alphabets that look alike.</source>
        <translation>Die Adresse enthält ähnlich aussehende Zeichen aus mehreren Alphabeten.</translation>
    </message>
    <message>
        <source>The site name is written in a foreign alphabet whose letters look like Latin letters.</source>
        <translation>Der Website-Name ist in einem fremden Alphabet geschrieben, dessen Buchstaben wie lateinische aussehen.</translation>
    </message>
    <message>
        <source>The site name looks almost identical to a well-known site.</source>
        <translation>Der Website-Name sieht fast genauso aus wie der einer bekannten Website.</translation>
    </message>
    <message>
        <source>It looks like {domain}, but it is not that site.</source>
        <translation>Sie sieht aus wie {domain}, ist aber nicht diese Website.</translation>
    </message>
    <message>
        <source>The site name contains symbols or characters that are not allowed in trustworthy site names.</source>
        <translation>Der Website-Name enthält Symbole oder Zeichen, die in vertrauenswürdigen Website-Namen nicht erlaubt sind.</translation>
    </message>
    <message>
        <source>The site name contains characters that look like digits.</source>
        <translation>Der Website-Name enthält Zeichen, die wie Ziffern aussehen.</translation>
    </message>
    <message>
        <source>The site name contains characters that look like punctuation such as slashes or dots.</source>
        <translation>Der Website-Name enthält Zeichen, die wie Satzzeichen aussehen, etwa Schrägstriche oder Punkte.</translation>
    </message>
</context>
<context>
    <name>UrlWaitDialog</name>
    <message>
        <source>You agreed to open this address:</source>
        <translation>Sie haben zugestimmt, diese Adresse zu öffnen:</translation>
    </message>
    <message>
        <source>Open in browser &amp;again</source>
        <translation>Im Browser &amp;erneut öffnen</translation>
    </message>
    <message>
        <source>Open the address once more; nothing is sent</source>
        <translation>Die Adresse noch einmal öffnen; es wird nichts gesendet</translation>
    </message>
    <message>
        <source>I have &amp;finished, check again</source>
        <translation>Ich bin &amp;fertig, erneut prüfen</translation>
    </message>
    <message>
        <source>Tell the server to check whether you have finished</source>
        <translation>Den Server prüfen lassen, ob Sie fertig sind</translation>
    </message>
    <message>
        <source>The server says you have not finished yet. Finish in your browser, then choose “I have finished, check again”. Cancel stops.</source>
        <translation>Der Server meldet, dass Sie noch nicht fertig sind. Schließen Sie den Vorgang im Browser ab und wählen Sie dann „Ich bin fertig, erneut prüfen“. „Abbrechen“ beendet den Vorgang.</translation>
    </message>
    <message>
        <source>Waiting for the server to tell whether you have finished. If it needs more, this window asks you again. You can close it at any time.</source>
        <translation>Warten, bis der Server mitteilt, ob Sie fertig sind. Braucht er mehr, fragt dieses Fenster Sie erneut. Sie können es jederzeit schließen.</translation>
    </message>
</context>
<context>
    <name>Validation</name>
    <message>
        <source>The server suggested a value that does not fit here; it was left out.</source>
        <translation>Der Server hat einen Wert vorgeschlagen, der hier nicht passt; er wurde weggelassen.</translation>
    </message>
    <message>
        <source>{typed} is not possible there, so the picker shows {shown} instead. Type it again.</source>
        <translation>{typed} ist dort nicht möglich, daher zeigt die Auswahl stattdessen {shown}. Bitte erneut eingeben.</translation>
    </message>
    <message>
        <source>Enter a whole number.</source>
        <extracomment>Longest time (seconds) one ``pattern`` match may take before it is treated as a mismatch. RFC 3339 ``date-time`` (section 5.6; "T" and "Z" in either case, as its note allows). Matched against words (camelCase and snake_case split, lower case), so "footprint" is not "otp". RFC 5321 section 4.1.2 ``Mailbox`` pieces (JSON Schema ``email``); ``idn-email`` (RFC 6531) adds any non-ASCII character to ``atext`` and ``qtext``.</extracomment>
        <translation>Geben Sie eine ganze Zahl ein.</translation>
    </message>
    <message>
        <source>Enter a number, such as 3 or 2.5.</source>
        <translation>Geben Sie eine Zahl ein, etwa 3 oder 2.5.</translation>
    </message>
    <message>
        <source>Enter a number of a reasonable size.</source>
        <translation>Geben Sie eine Zahl von vernünftiger Größe ein.</translation>
    </message>
    <message>
        <source>Choose at least {count}.</source>
        <translation>Wählen Sie mindestens {count}.</translation>
    </message>
    <message>
        <source>This field is required.</source>
        <translation>Dieses Feld ist ein Pflichtfeld.</translation>
    </message>
    <message>
        <source>The minimum is {minimum}.</source>
        <translation>Das Minimum ist {minimum}.</translation>
    </message>
    <message>
        <source>The maximum is {maximum}.</source>
        <translation>Das Maximum ist {maximum}.</translation>
    </message>
    <message>
        <source>Choose one of the options.</source>
        <translation>Wählen Sie eine der Optionen.</translation>
    </message>
    <message>
        <source>Choose only from the options.</source>
        <translation>Wählen Sie nur aus den Optionen.</translation>
    </message>
    <message>
        <source>Choose each option only once.</source>
        <translation>Wählen Sie jede Option nur einmal.</translation>
    </message>
    <message>
        <source>Choose at most {count}.</source>
        <translation>Wählen Sie höchstens {count}.</translation>
    </message>
    <message>
        <source>Enter at least {count} characters.</source>
        <translation>Geben Sie mindestens {count} Zeichen ein.</translation>
    </message>
    <message>
        <source>Enter at most {count} characters.</source>
        <translation>Geben Sie höchstens {count} Zeichen ein.</translation>
    </message>
    <message>
        <source>Enter a date as YYYY-MM-DD.</source>
        <translation>Geben Sie ein Datum als JJJJ-MM-TT ein.</translation>
    </message>
    <message>
        <source>Enter a date and time with an offset, such as 2026-05-01T09:30:00+02:00.</source>
        <translation>Geben Sie Datum und Uhrzeit mit Zeitzonenversatz ein, etwa 2026-05-01T09:30:00+02:00.</translation>
    </message>
    <message>
        <source>Enter an email address, such as name@example.com.</source>
        <translation>Geben Sie eine E-Mail-Adresse ein, etwa name@example.com.</translation>
    </message>
    <message>
        <source>This email address is not in a valid format.</source>
        <translation>Diese E-Mail-Adresse hat kein gültiges Format.</translation>
    </message>
    <message>
        <source>Enter a full address with its scheme, such as https://example.com/.</source>
        <translation>Geben Sie eine vollständige Adresse mit Schema ein, etwa https://example.com/.</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>Pflichtfeld.</translation>
    </message>
    <message>
        <source>Whole number between {low} and {high}.</source>
        <extracomment>Numeric bounds in words, per kind: (both bounds, minimum only, maximum only, neither).</extracomment>
        <translation>Ganze Zahl zwischen {low} und {high}.</translation>
    </message>
    <message>
        <source>The value is still being checked against the expected pattern.</source>
        <translation>Der Wert wird noch mit dem erwarteten Muster abgeglichen.</translation>
    </message>
    <message>
        <source>The value could not be checked against the expected pattern in time.</source>
        <translation>Der Wert konnte nicht rechtzeitig mit dem erwarteten Muster abgeglichen werden.</translation>
    </message>
    <message>
        <source>The value does not match the expected pattern.</source>
        <translation>Der Wert entspricht nicht dem erwarteten Muster.</translation>
    </message>
    <message>
        <source>Whole number of at least {low}.</source>
        <translation>Ganze Zahl, mindestens {low}.</translation>
    </message>
    <message>
        <source>Whole number of at most {high}.</source>
        <translation>Ganze Zahl, höchstens {high}.</translation>
    </message>
    <message>
        <source>Whole number.</source>
        <translation>Ganze Zahl.</translation>
    </message>
    <message>
        <source>Number between {low} and {high}.</source>
        <translation>Zahl zwischen {low} und {high}.</translation>
    </message>
    <message>
        <source>Number of at least {low}.</source>
        <translation>Zahl, mindestens {low}.</translation>
    </message>
    <message>
        <source>Number of at most {high}.</source>
        <translation>Zahl, höchstens {high}.</translation>
    </message>
    <message>
        <source>Number.</source>
        <translation>Zahl.</translation>
    </message>
    <message>
        <source>{low} to {high} characters.</source>
        <translation>{low} bis {high} Zeichen.</translation>
    </message>
    <message>
        <source>At least {count} characters.</source>
        <translation>Mindestens {count} Zeichen.</translation>
    </message>
    <message>
        <source>At most {count} characters.</source>
        <translation>Höchstens {count} Zeichen.</translation>
    </message>
    <message>
        <source>An email address.</source>
        <translation>Eine E-Mail-Adresse.</translation>
    </message>
    <message>
        <source>A web address.</source>
        <translation>Eine Webadresse.</translation>
    </message>
    <message>
        <source>A date.</source>
        <translation>Ein Datum.</translation>
    </message>
    <message>
        <source>A date and time.</source>
        <translation>Datum und Uhrzeit.</translation>
    </message>
    <message>
        <source>Choose {low} to {high}.</source>
        <translation>Wählen Sie {low} bis {high}.</translation>
    </message>
    <message>
        <source>Choose {count}.</source>
        <translation>Wählen Sie {count}.</translation>
    </message>
</context>
<context>
    <name>Widgets</name>
    <message>
        <source>Year</source>
        <translation>Jahr</translation>
    </message>
    <message>
        <source>Next month</source>
        <translation>Nächster Monat</translation>
    </message>
    <message>
        <source>Previous month</source>
        <translation>Vorheriger Monat</translation>
    </message>
    <message>
        <source>{month} {year}</source>
        <translation>{month} {year}</translation>
    </message>
    <message>
        <source>Invisible characters in this value: {names}. It is exactly: {value}</source>
        <extracomment>Sentinel date meaning "no date" in the date pickers (shown as the empty special text): Qt's earliest picker date, so every date from 0100-01-02 on can be shown. Most characters a line edit holds (Qt's default, 32,767, silently cut longer text).</extracomment>
        <translation>Unsichtbare Zeichen in diesem Wert: {names}. Ausgeschrieben lautet er: {value}</translation>
    </message>
    <message>
        <source>Not set</source>
        <extracomment>Whether the row label is the control's own text (checkbox, group box title). Whether the field is one control named by the field title; otherwise ``widget`` is a group named by the title and each control is named by its option. A label the form shows under ``widget`` (hidden while ``notice_text`` is empty). What ``notice`` says now (:func:`invisible_notice`); part of the accessible description.
----------
The frame: a fixed offset (from the default), or ``None`` for local time.</extracomment>
        <translation>Nicht gesetzt</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Nein</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Clear {field}</source>
        <translation>{field} leeren</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Auswählen …</translation>
    </message>
</context>
</TS>