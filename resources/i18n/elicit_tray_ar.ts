<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ar">
<context>
    <name>Dialog</name>
    <message>
        <source>{server} asks through the local program {program}.</source>
        <translation>يسأل {server} عبر البرنامج المحلي {program}.</translation>
    </message>
    <message>
        <source>{server} asks through the local program {program}: {message}</source>
        <translation>يسأل {server} عبر البرنامج المحلي {program}: {message}</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>تحذير</translation>
    </message>
    <message>
        <source>“{claim}”</source>
        <translation>«{claim}»</translation>
    </message>
    <message>
        <source>{summary} — elicit-tray</source>
        <extracomment>How long an expired dialog stays to say so before it closes by itself (ms). Shown without the focus because the user was typing; it waits to be chosen.</extracomment>
        <translation>{summary} — elicit-tray</translation>
    </message>
    <message>
        <source>Message from the server</source>
        <translation>رسالة من الخادم</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>&amp;رفض</translation>
    </message>
    <message>
        <source>Say no to this request (Alt+D)</source>
        <translation>رفض هذا الطلب (Alt+D)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>إلغاء</translation>
    </message>
    <message>
        <source>Dismiss without answering (Esc)</source>
        <translation>الإغلاق دون إجابة (Esc)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;إغلاق</translation>
    </message>
    <message>
        <source>An unnamed MCP server</source>
        <extracomment>id (``field-&lt;name&gt;-error``) -&gt; inline error label; filled by the dialogs that have fields. The user-set timeout, once :meth:`start_timeout` ran.</extracomment>
        <translation>خادم MCP بلا اسم</translation>
    </message>
    <message>
        <source>Requesting server</source>
        <translation>الخادم الطالب</translation>
    </message>
    <message>
        <source>That is what the server says it is; not verified.</source>
        <translation>هذا ما يقوله الخادم عن نفسه؛ لم يُتحقَّق منه.</translation>
    </message>
    <message>
        <source>The server did not say who it is.</source>
        <translation>لم يذكر الخادم من هو.</translation>
    </message>
    <message>
        <source>Relayed by a program that says it is {client}.</source>
        <translation>مُرسَل عبر برنامج يقول إنه {client}.</translation>
    </message>
    <message>
        <source>Asked by the local program {program}</source>
        <translation>طلبه البرنامج المحلي {program}</translation>
    </message>
    <message>
        <source>(unknown: the system did not tell)</source>
        <translation>(غير معروف: لم يُخبر النظام)</translation>
    </message>
    <message>
        <source>Requesting program</source>
        <translation>البرنامج الطالب</translation>
    </message>
    <message>
        <source>Cancels by itself in {time}</source>
        <extracomment>How often the shown time is brought up to date (ms).</extracomment>
        <translation>يُلغى تلقائيًا خلال {time}</translation>
    </message>
    <message>
        <source>Timer stopped</source>
        <translation>توقف المؤقت</translation>
    </message>
    <message>
        <source>This request is cancelled in {seconds} seconds. Press any key in this window to stop the timer.</source>
        <translation>سيُلغى هذا الطلب بعد {seconds} ثانية. اضغط أي مفتاح في هذه النافذة لإيقاف المؤقت.</translation>
    </message>
    <message>
        <source>This request is no longer waiting: the program that asked has cancelled it or gone away. Nothing was sent. This window closes by itself.</source>
        <translation>لم يعد هذا الطلب قيد الانتظار: ألغاه البرنامج الذي طلبه أو توقف. لم يُرسَل شيء. ستُغلق هذه النافذة تلقائيًا.</translation>
    </message>
    <message>
        <source>Keys typed here are ignored until you click in this window or press {key} in it.</source>
        <translation>يتم تجاهل المفاتيح المكتوبة هنا حتى تنقر في هذه النافذة أو تضغط {key} فيها.</translation>
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
        <translation>&amp;قبول</translation>
    </message>
    <message>
        <source>This form seems to ask for a secret ({fields}). MCP forbids servers to ask for passwords, tokens or keys in a form. Decline unless you are sure.</source>
        <extracomment>Property names of the fields the secret warning names (judged by name, title and kind).</extracomment>
        <translation>يبدو أن هذا النموذج يطلب سرًّا ({fields}). يمنع MCP الخوادم من طلب كلمات المرور أو الرموز أو المفاتيح في نموذج. ارفض ما لم تكن متأكدًا.</translation>
    </message>
    <message>
        <source>Fields marked * are required.</source>
        <translation>الحقول المعلَّمة بـ * مطلوبة.</translation>
    </message>
    <message>
        <source>Please correct the highlighted field.</source>
        <translation>يُرجى تصحيح الحقل المميَّز.</translation>
    </message>
    <message>
        <source>Please correct the highlighted fields.</source>
        <translation>يُرجى تصحيح الحقول المميَّزة.</translation>
    </message>
    <message>
        <source>This answer does not fit the request: {problems}</source>
        <translation>هذه الإجابة لا تطابق الطلب: {problems}</translation>
    </message>
</context>
<context>
    <name>History</name>
    <message>
        <source>All time</source>
        <translation>كل الأوقات</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>اليوم</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>آخر 7 أيام</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>آخر 30 يومًا</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>آخر 90 يومًا</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>مقبول</translation>
    </message>
    <message>
        <source>Declined</source>
        <translation>مرفوض</translation>
    </message>
    <message>
        <source>Cancelled (Escape)</source>
        <translation>مُلغى (Escape)</translation>
    </message>
    <message>
        <source>Cancelled (button)</source>
        <translation>مُلغى (زر)</translation>
    </message>
    <message>
        <source>Cancelled (window closed)</source>
        <translation>مُلغى (أُغلقت النافذة)</translation>
    </message>
    <message>
        <source>Cancelled (from the tray)</source>
        <translation>مُلغى (من شريط النظام)</translation>
    </message>
    <message>
        <source>Cancelled (timeout)</source>
        <translation>مُلغى (انتهت المهلة)</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>منتهي الصلاحية</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>خطأ</translation>
    </message>
    <message>
        <source>Invalid request</source>
        <translation>طلب غير صالح</translation>
    </message>
    <message>
        <source>Refused (busy)</source>
        <translation>مرفوض (مشغول)</translation>
    </message>
    <message>
        <source>Waiting for an answer</source>
        <translation>بانتظار إجابة</translation>
    </message>
    <message>
        <source>Interrupted (the app stopped)</source>
        <translation>مقطوع (توقف التطبيق)</translation>
    </message>
    <message>
        <source>All outcomes</source>
        <translation>كل النتائج</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>مُلغى</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>الاستلام</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>الخادم</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>العملية</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>النمط</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>النتيجة</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>السؤال</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(بلا اسم)</translation>
    </message>
    <message>
        <source>form</source>
        <translation>نموذج</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>رابط</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>تفصيل</translation>
    </message>
    <message>
        <source>Shown</source>
        <translation>العرض</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>الإجابة</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>المدة</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} ث</translation>
    </message>
    <message>
        <source>Server (self-reported)</source>
        <translation>الخادم (كما يصف نفسه)</translation>
    </message>
    <message>
        <source>Client (self-reported)</source>
        <translation>العميل (كما يصف نفسه)</translation>
    </message>
    <message>
        <source>Process id</source>
        <translation>معرّف العملية</translation>
    </message>
    <message>
        <source>Executable</source>
        <translation>الملف التنفيذي</translation>
    </message>
    <message>
        <source>User id</source>
        <translation>معرّف المستخدم</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>الرسالة</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>العنوان</translation>
    </message>
    <message>
        <source>Address check</source>
        <translation>فحص العنوان</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>التحذيرات</translation>
    </message>
    <message>
        <source>(looks like a secret: never kept)</source>
        <translation>(يبدو سرًّا: لا يُحفظ أبدًا)</translation>
    </message>
    <message>
        <source>(not kept)</source>
        <translation>(غير محفوظ)</translation>
    </message>
    <message>
        <source>Field {title}: {value}</source>
        <translation>الحقل {title}: {value}</translation>
    </message>
    <message>
        <source>History</source>
        <translation>السجل</translation>
    </message>
    <message>
        <source>server, question, address, field…</source>
        <translation>خادم، سؤال، عنوان، حقل…</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;بحث:</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>بحث</translation>
    </message>
    <message>
        <source>Shows the decisions whose server, question, address, process or fields contain this text.</source>
        <translation>يعرض القرارات التي يحتوي خادمها أو سؤالها أو عنوانها أو عمليتها أو حقولها على هذا النص.</translation>
    </message>
    <message>
        <source>Se&amp;rver:</source>
        <translation>&amp;الخادم:</translation>
    </message>
    <message>
        <source>Shows the decisions of one server only.</source>
        <translation>يعرض قرارات خادم واحد فقط.</translation>
    </message>
    <message>
        <source>&amp;Outcome:</source>
        <translation>ال&amp;نتيجة:</translation>
    </message>
    <message>
        <source>Shows the decisions with this outcome only.</source>
        <translation>يعرض القرارات ذات هذه النتيجة فقط.</translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>ال&amp;فترة:</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>الفترة</translation>
    </message>
    <message>
        <source>Shows the decisions received in this period only.</source>
        <translation>يعرض القرارات المستلمة في هذه الفترة فقط.</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>القرارات</translation>
    </message>
    <message>
        <source>Newest first. Use the arrow keys to choose a decision; its details follow.</source>
        <translation>الأحدث أولًا. استخدم مفاتيح الأسهم لاختيار قرار؛ وتظهر تفاصيله تبعًا.</translation>
    </message>
    <message>
        <source>&amp;Table of decisions:</source>
        <translation>&amp;جدول القرارات:</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>التفاصيل</translation>
    </message>
    <message>
        <source>Everything kept about the chosen decision.</source>
        <translation>كل ما حُفظ عن القرار المختار.</translation>
    </message>
    <message>
        <source>D&amp;etails:</source>
        <translation>الت&amp;فاصيل:</translation>
    </message>
    <message>
        <source>Number of decisions shown</source>
        <translation>عدد القرارات المعروضة</translation>
    </message>
    <message>
        <source>Export &amp;JSON…</source>
        <translation>تصدير &amp;JSON…</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>تصدير &amp;CSV…</translation>
    </message>
    <message>
        <source>C&amp;lear history…</source>
        <translation>&amp;مسح السجل…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>إغلاق</translation>
    </message>
    <message>
        <source>Saves the decisions shown to a JSON file.</source>
        <translation>يحفظ القرارات المعروضة في ملف JSON.</translation>
    </message>
    <message>
        <source>Saves the decisions shown to a CSV file.</source>
        <translation>يحفظ القرارات المعروضة في ملف CSV.</translation>
    </message>
    <message>
        <source>Deletes every decision kept, after asking.</source>
        <translation>يحذف كل القرارات المحفوظة بعد السؤال.</translation>
    </message>
    <message>
        <source>Closes this window.</source>
        <translation>يغلق هذه النافذة.</translation>
    </message>
    <message>
        <source>The history is off (Settings…).</source>
        <translation>السجل متوقف (الإعدادات…).</translation>
    </message>
    <message>
        <source>The history is locked by another program; it is read again in a moment.</source>
        <translation>السجل مقفل من قبل برنامج آخر؛ ستتم قراءته مرة أخرى بعد قليل.</translation>
    </message>
    <message>
        <source>1 decision</source>
        <translation>قرار واحد</translation>
    </message>
    <message>
        <source>{count} decisions</source>
        <translation>{count} قرارات</translation>
    </message>
    <message>
        <source>All servers</source>
        <translation>كل الخوادم</translation>
    </message>
    <message>
        <source>Export the decisions shown</source>
        <translation>تصدير القرارات المعروضة</translation>
    </message>
    <message>
        <source>Cannot write {path}: {error}</source>
        <translation>تعذّرت الكتابة إلى {path}: {error}</translation>
    </message>
    <message>
        <source>Delete every decision kept? This cannot be undone.</source>
        <translation>حذف كل القرارات المحفوظة؟ لا يمكن التراجع عن ذلك.</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>مسح السجل</translation>
    </message>
</context>
<context>
    <name>Presenter</name>
    <message>
        <source>A local program</source>
        <extracomment>Unicode isolates around a value placed inside a translated sentence (UAX #9): first-strong, left-to-right, and their end. Server and OS strings have their own bidi controls escaped (display.py), so these are the only ones.</extracomment>
        <translation>برنامج محلي</translation>
    </message>
    <message>
        <source>{count} requests are waiting.</source>
        <translation>عدد الطلبات المنتظرة: {count}.</translation>
    </message>
    <message>
        <source>1 more request is waiting. It opens when a dialog is answered, or choose it in the elicit-tray menu.</source>
        <translation>طلب واحد آخر قيد الانتظار. يُفتح عند الإجابة عن أحد مربعات الحوار، أو اختره من قائمة elicit-tray.</translation>
    </message>
    <message>
        <source>{count} more requests are waiting. They open one by one as dialogs are answered, or choose one in the elicit-tray menu.</source>
        <translation>طلبات أخرى قيد الانتظار: {count}. تُفتح واحدًا تلو الآخر عند الإجابة عن مربعات الحوار، أو اختر أحدها من قائمة elicit-tray.</translation>
    </message>
    <message>
        <source>{who} asks for your input. Go to the request&apos;s window (click it, switch to it, or choose it in the elicit-tray menu), then press {key} to answer with the keyboard.</source>
        <translation>{who} يطلب إدخالك. انتقل إلى نافذة الطلب (انقر عليها، أو انتقل إليها، أو اخترها من قائمة elicit-tray)، ثم اضغط {key} للإجابة باستخدام لوحة المفاتيح.</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Settings</source>
        <extracomment>How often the history's retention is applied while the app runs (a day, in ms). Where "Start at login" (XDG Autostart) applies. Command-line options of each setting (shown beside a setting the command line fixed). Languages offered: code ("" follows the system) and the language's own name.</extracomment>
        <translation>الإعدادات</translation>
    </message>
    <message>
        <source>&amp;Start elicit-tray at login</source>
        <translation>&amp;تشغيل elicit-tray عند تسجيل الدخول</translation>
    </message>
    <message>
        <source>Adds or removes the autostart entry of your desktop.</source>
        <translation>يضيف مُدخل التشغيل التلقائي لسطح المكتب أو يزيله.</translation>
    </message>
    <message>
        <source> s</source>
        <translation> ث</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>أبدًا</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>&amp;المهلة:</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>المهلة</translation>
    </message>
    <message>
        <source>An untouched dialog answers cancel after this many seconds; a countdown shows it. 0: never.</source>
        <translation>يجيب الحوار الذي لم يُلمس بالإلغاء بعد هذا العدد من الثواني؛ ويظهر ذلك عدّ تنازلي. 0: أبدًا.</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> مث</translation>
    </message>
    <message>
        <source>&amp;Consent delay:</source>
        <translation>&amp;مهلة الموافقة:</translation>
    </message>
    <message>
        <source>Consent delay</source>
        <translation>مهلة الموافقة</translation>
    </message>
    <message>
        <source>Buttons stay disarmed this long after a dialog appears or regains focus, so a key meant for another window cannot answer it. From {low} to {high} ms.</source>
        <translation>تبقى الأزرار معطّلة هذه المدة بعد ظهور الحوار أو عودة التركيز إليه، حتى لا يجيب عنه مفتاح موجّه لنافذة أخرى. من {low} إلى {high} مث.</translation>
    </message>
    <message>
        <source>Keep a &amp;history of decisions</source>
        <translation>الاحتفاظ ب&amp;سجل للقرارات</translation>
    </message>
    <message>
        <source>Keep the &amp;values chosen in forms (yes/no, options, numbers, dates)</source>
        <translation>الاحتفاظ بال&amp;قيم المختارة في النماذج (نعم/لا، الخيارات، الأرقام، التواريخ)</translation>
    </message>
    <message>
        <source>Keep &amp;free text typed in forms (never secret-looking fields)</source>
        <translation>الاحتفاظ بالنص ال&amp;حر المكتوب في النماذج (لا الحقول التي تبدو سرية)</translation>
    </message>
    <message>
        <source>Keep the &amp;query strings of addresses</source>
        <translation>الاحتفاظ ب&amp;سلاسل الاستعلام في العناوين</translation>
    </message>
    <message>
        <source>Records every request and its answer in a private database on this computer.</source>
        <translation>يسجّل كل طلب وإجابته في قاعدة بيانات خاصة على هذا الحاسوب.</translation>
    </message>
    <message>
        <source>Without it the history keeps each field's title but not what was chosen. Never the value of a field that looks like it asks for a secret.</source>
        <translation>من دونه يحفظ السجل عنوان كل حقل دون ما اختير فيه. لا يحفظ أبدًا قيمة حقل يبدو أنه يطلب سرًا.</translation>
    </message>
    <message>
        <source>Typed text can hold anything: names, addresses, a pasted token. Without it the history keeps only the choices made.</source>
        <translation>قد يحتوي النص المكتوب على أي شيء: أسماء أو عناوين أو رمز مميز ملصوق. من دونه لا يحفظ السجل إلا الاختيارات.</translation>
    </message>
    <message>
        <source>Query strings and fragments often hold tokens; without it only scheme, host and path are kept.</source>
        <translation>كثيرًا ما تحوي سلاسل الاستعلام والأجزاء رموزًا سرية؛ من دونه يُحفظ المخطط والمضيف والمسار فقط.</translation>
    </message>
    <message>
        <source> days</source>
        <translation> يوم</translation>
    </message>
    <message>
        <source>Forever</source>
        <translation>للأبد</translation>
    </message>
    <message>
        <source>&amp;Keep decisions for:</source>
        <translation>&amp;الاحتفاظ بالقرارات مدة:</translation>
    </message>
    <message>
        <source>Retention</source>
        <translation>مدة الاحتفاظ</translation>
    </message>
    <message>
        <source>Older decisions are deleted at start and once a day. 0: kept forever.</source>
        <translation>تُحذف القرارات الأقدم عند البدء ومرة يوميًا. 0: تُحفظ للأبد.</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>لغة النظام</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>ال&amp;لغة:</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>اللغة</translation>
    </message>
    <message>
        <source>The language of new dialogs and windows.</source>
        <translation>لغة الحوارات والنوافذ الجديدة.</translation>
    </message>
    <message>
        <source>Where MCP clients reach elicit-tray (ELICIT_TRAY_SOCKET or --socket).</source>
        <translation>حيث يصل عملاء MCP إلى elicit-tray (ELICIT_TRAY_SOCKET أو --socket).</translation>
    </message>
    <message>
        <source>C&amp;opy</source>
        <translation>&amp;نسخ</translation>
    </message>
    <message>
        <source>Copy the socket path</source>
        <translation>نسخ مسار المقبس</translation>
    </message>
    <message>
        <source>Soc&amp;ket in use:</source>
        <translation>المقبس ال&amp;مستخدم:</translation>
    </message>
    <message>
        <source>Socket in use</source>
        <translation>المقبس المستخدم</translation>
    </message>
    <message>
        <source>Changes apply at once.</source>
        <translation>تسري التغييرات فورًا.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>إغلاق</translation>
    </message>
    <message>
        <source>Set on the command line ({option}).</source>
        <translation>مضبوط في سطر الأوامر ({option}).</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>1 request waiting</source>
        <extracomment>``history`` or ``settings``: the tray app opens that window as it starts. Where "Start at login" (XDG Autostart) applies.</extracomment>
        <translation>طلب واحد قيد الانتظار</translation>
    </message>
    <message>
        <source>{count} requests waiting</source>
        <translation>طلبات قيد الانتظار: {count}</translation>
    </message>
    <message>
        <source>elicit-tray: no requests waiting</source>
        <translation>elicit-tray: لا طلبات قيد الانتظار</translation>
    </message>
    <message>
        <source>A server asks for your input</source>
        <translation>خادم يطلب إدخالك</translation>
    </message>
    <message>
        <source>No requests waiting</source>
        <translation>لا طلبات قيد الانتظار</translation>
    </message>
    <message>
        <source>{summary} (not shown yet)</source>
        <translation>{summary} (لم يُعرض بعد)</translation>
    </message>
    <message>
        <source>&amp;Dismiss all (answer cancel)</source>
        <translation>&amp;صرف الكل (الإجابة بالإلغاء)</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>&amp;السجل…</translation>
    </message>
    <message>
        <source>Se&amp;ttings…</source>
        <translation>الإ&amp;عدادات…</translation>
    </message>
    <message>
        <source>&amp;Start at login</source>
        <translation>&amp;البدء عند تسجيل الدخول</translation>
    </message>
    <message>
        <source>&amp;Quit elicit-tray</source>
        <translation>&amp;إنهاء elicit-tray</translation>
    </message>
</context>
<context>
    <name>UrlDialog</name>
    <message>
        <source>The server asks you to open this address in your web browser:</source>
        <extracomment>Opens an ASCII href in the system browser; returns whether the system accepted it. Explicit bidi isolates (UAX #9): LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE. Characters that separate the parts of a URL (labels, path segments, query fields). Pixels kept free at the end of a line for rounding between metrics and the rich-text layout.</extracomment>
        <translation>يطلب الخادم منك فتح هذا العنوان في متصفح الويب:</translation>
    </message>
    <message>
        <source>Full address</source>
        <translation>العنوان الكامل</translation>
    </message>
    <message>
        <source>The browser will open exactly this address:</source>
        <translation>سيفتح المتصفح هذا العنوان بالضبط:</translation>
    </message>
    <message>
        <source>Website:</source>
        <translation>الموقع:</translation>
    </message>
    <message>
        <source>Website {host}, which belongs to {site}</source>
        <translation>الموقع {host}، وهو تابع لـ {site}</translation>
    </message>
    <message>
        <source>This address belongs to the site {site}.</source>
        <translation>هذا العنوان تابع للموقع {site}.</translation>
    </message>
    <message>
        <source>The name contains international characters. Decoded (Unicode) it reads “{unicode}”; its coded form (Punycode) is {punycode}.</source>
        <translation>يحتوي الاسم على أحرف دولية. بعد فك ترميزه (يونيكود) يُقرأ «{unicode}»؛ وصيغته المرمَّزة (Punycode) هي {punycode}.</translation>
    </message>
    <message>
        <source>This address cannot be opened (its scheme is “{scheme}:”).</source>
        <translation>لا يمكن فتح هذا العنوان (مخططه «{scheme}:»).</translation>
    </message>
    <message>
        <source>This address cannot be opened.</source>
        <translation>لا يمكن فتح هذا العنوان.</translation>
    </message>
    <message>
        <source>Be careful before opening this address.</source>
        <translation>كن حذرًا قبل فتح هذا العنوان.</translation>
    </message>
    <message>
        <source>&amp;Open in browser</source>
        <translation>&amp;فتح في المتصفح</translation>
    </message>
    <message>
        <source>Open the address in your web browser; the server is told you agreed</source>
        <translation>افتح العنوان في متصفح الويب؛ سيُبلَّغ الخادم بموافقتك</translation>
    </message>
    <message>
        <source>The web browser could not be started. You can copy the address above, or decline or cancel.</source>
        <translation>تعذّر تشغيل متصفح الويب. يمكنك نسخ العنوان أعلاه، أو الرفض أو الإلغاء.</translation>
    </message>
    <message>
        <source>Opened in your browser. Waiting for the server to confirm that you have finished… You can close this window at any time.</source>
        <translation>فُتح في متصفحك. بانتظار أن يؤكد الخادم أنك انتهيت… يمكنك إغلاق هذه النافذة في أي وقت.</translation>
    </message>
    <message>
        <source>The server confirmed that you have finished. This window closes by itself.</source>
        <translation>أكد الخادم أنك انتهيت. ستُغلق هذه النافذة تلقائيًا.</translation>
    </message>
</context>
<context>
    <name>UrlReasons</name>
    <message>
        <source>This is not a valid web address.</source>
        <translation>هذا ليس عنوان ويب صالحًا.</translation>
    </message>
    <message>
        <source>The address contains hidden, invisible or space characters.</source>
        <translation>يحتوي العنوان على أحرف مخفية أو غير مرئية أو مسافات.</translation>
    </message>
    <message>
        <source>The address contains characters that reverse the direction of the text shown.</source>
        <translation>يحتوي العنوان على أحرف تعكس اتجاه النص المعروض.</translation>
    </message>
    <message>
        <source>The address is written in a way that browsers and other programs could read as different websites.</source>
        <translation>العنوان مكتوب بطريقة قد تقرؤها المتصفحات والبرامج الأخرى على أنها مواقع مختلفة.</translation>
    </message>
    <message>
        <source>This is not a web page address (only http and https can be opened).</source>
        <translation>هذا ليس عنوان صفحة ويب (يمكن فتح http وhttps فقط).</translation>
    </message>
    <message>
        <source>The address contains a malformed international name.</source>
        <translation>يحتوي العنوان على اسم دولي مشوَّه.</translation>
    </message>
    <message>
        <source>The connection to this site is not encrypted.</source>
        <translation>الاتصال بهذا الموقع غير مشفَّر.</translation>
    </message>
    <message>
        <source>The address contains a user name before the real site name, which can make it look like a different site.</source>
        <translation>يحتوي العنوان على اسم مستخدم قبل اسم الموقع الحقيقي، مما قد يجعله يبدو موقعًا مختلفًا.</translation>
    </message>
    <message>
        <source>The address is a numeric internet address rather than a site name.</source>
        <translation>العنوان عنوان إنترنت رقمي وليس اسم موقع.</translation>
    </message>
    <message>
        <source>The numeric address is written in an unusual form.</source>
        <translation>العنوان الرقمي مكتوب بصيغة غير معتادة.</translation>
    </message>
    <message>
        <source>The address points to this computer or to a private or local network.</source>
        <translation>يشير العنوان إلى هذا الحاسوب أو إلى شبكة خاصة أو محلية.</translation>
    </message>
    <message>
        <source>The site name is written with unusual characters that the browser converts to a different spelling.</source>
        <translation>اسم الموقع مكتوب بأحرف غير معتادة يحوّلها المتصفح إلى تهجئة مختلفة.</translation>
    </message>
    <message>
        <source>The site name ends with an extra dot.</source>
        <translation>ينتهي اسم الموقع بنقطة زائدة.</translation>
    </message>
    <message>
        <source>The site name is unusually long.</source>
        <translation>اسم الموقع طويل على غير العادة.</translation>
    </message>
    <message>
        <source>The address contains the name of a well-known site, but it leads to a different site.</source>
        <translation>يحتوي العنوان على اسم موقع معروف، لكنه يؤدي إلى موقع مختلف.</translation>
    </message>
    <message>
        <source>The address spells out {domain} with dots or dashes, but it leads to a different site.</source>
        <translation>يكتب العنوان {domain} بنقاط أو شرطات، لكنه يؤدي إلى موقع مختلف.</translation>
    </message>
    <message>
        <source>The name of {domain} is only part of this address: it leads to a different site.</source>
        <translation>اسم {domain} ليس سوى جزء من هذا العنوان: فهو يؤدي إلى موقع مختلف.</translation>
    </message>
    <message>
        <source>The site name joins the name of {domain} with other words, but it is not that site.</source>
        <translation>يجمع اسم الموقع بين اسم {domain} وكلمات أخرى، لكنه ليس ذلك الموقع.</translation>
    </message>
    <message>
        <source>The site name uses international characters that could be mistaken for other letters, so it is shown in its coded form.</source>
        <translation>يستخدم اسم الموقع أحرفًا دولية قد تُلتبس بأحرف أخرى، لذا يُعرض بصيغته المرمَّزة.</translation>
    </message>
    <message>
        <source>The address contains characters from several alphabets that look alike.</source>
        <translation>يحتوي العنوان على أحرف متشابهة من عدة أبجديات.</translation>
    </message>
    <message>
        <source>The site name is written in a foreign alphabet whose letters look like Latin letters.</source>
        <translation>اسم الموقع مكتوب بأبجدية أجنبية تشبه حروفها الحروف اللاتينية.</translation>
    </message>
    <message>
        <source>The site name looks almost identical to a well-known site.</source>
        <translation>يبدو اسم الموقع مطابقًا تقريبًا لموقع معروف.</translation>
    </message>
    <message>
        <source>It looks like {domain}, but it is not that site.</source>
        <translation>يبدو مثل {domain}، لكنه ليس ذلك الموقع.</translation>
    </message>
    <message>
        <source>The site name contains symbols or characters that are not allowed in trustworthy site names.</source>
        <translation>يحتوي اسم الموقع على رموز أو أحرف غير مسموح بها في أسماء المواقع الموثوقة.</translation>
    </message>
    <message>
        <source>The site name contains characters that look like digits.</source>
        <translation>يحتوي اسم الموقع على أحرف تشبه الأرقام.</translation>
    </message>
    <message>
        <source>The site name contains characters that look like punctuation such as slashes or dots.</source>
        <translation>يحتوي اسم الموقع على أحرف تشبه علامات الترقيم كالشرطات المائلة أو النقاط.</translation>
    </message>
</context>
<context>
    <name>UrlWaitDialog</name>
    <message>
        <source>You agreed to open this address:</source>
        <translation>وافقت على فتح هذا العنوان:</translation>
    </message>
    <message>
        <source>Open in browser &amp;again</source>
        <translation>فتح في المتصفح &amp;مرة أخرى</translation>
    </message>
    <message>
        <source>Open the address once more; nothing is sent</source>
        <translation>فتح العنوان مرة أخرى؛ لا يُرسَل شيء</translation>
    </message>
    <message>
        <source>I have &amp;finished, check again</source>
        <translation>&amp;انتهيت، تحقّق مجددًا</translation>
    </message>
    <message>
        <source>Tell the server to check whether you have finished</source>
        <translation>اطلب من الخادم أن يتحقّق مما إذا كنت قد انتهيت</translation>
    </message>
    <message>
        <source>The server says you have not finished yet. Finish in your browser, then choose “I have finished, check again”. Cancel stops.</source>
        <translation>يقول الخادم إنك لم تنتهِ بعد. أكمِل في متصفحك، ثم اختر «انتهيت، تحقّق مجددًا». «إلغاء» يوقف العملية.</translation>
    </message>
    <message>
        <source>Waiting for the server to tell whether you have finished. If it needs more, this window asks you again. You can close it at any time.</source>
        <translation>في انتظار أن يخبر الخادم ما إذا كنت قد انتهيت. إن احتاج إلى المزيد، تسألك هذه النافذة مجددًا. يمكنك إغلاقها في أي وقت.</translation>
    </message>
</context>
<context>
    <name>Validation</name>
    <message>
        <source>The server suggested a value that does not fit here; it was left out.</source>
        <translation>اقترح الخادم قيمة لا تناسب هذا الحقل، فتم تركها.</translation>
    </message>
    <message>
        <source>{typed} is not possible there, so the picker shows {shown} instead. Type it again.</source>
        <translation>{typed} غير ممكن هناك، لذلك يعرض المنتقي {shown} بدلاً منه. اكتبه مرة أخرى.</translation>
    </message>
    <message>
        <source>Enter a whole number.</source>
        <extracomment>Longest time (seconds) one ``pattern`` match may take before it is treated as a mismatch. RFC 3339 ``date-time`` (section 5.6; "T" and "Z" in either case, as its note allows). Matched against words (camelCase and snake_case split, lower case), so "footprint" is not "otp". RFC 5321 section 4.1.2 ``Mailbox`` pieces (JSON Schema ``email``); ``idn-email`` (RFC 6531) adds any non-ASCII character to ``atext`` and ``qtext``.</extracomment>
        <translation>أدخل عددًا صحيحًا.</translation>
    </message>
    <message>
        <source>Enter a number, such as 3 or 2.5.</source>
        <translation>أدخل عددًا، مثل 3 أو 2.5.</translation>
    </message>
    <message>
        <source>Enter a number of a reasonable size.</source>
        <translation>أدخل عددًا بحجم معقول.</translation>
    </message>
    <message>
        <source>Choose at least {count}.</source>
        <translation>اختر {count} على الأقل.</translation>
    </message>
    <message>
        <source>This field is required.</source>
        <translation>هذا الحقل مطلوب.</translation>
    </message>
    <message>
        <source>The minimum is {minimum}.</source>
        <translation>الحد الأدنى {minimum}.</translation>
    </message>
    <message>
        <source>The maximum is {maximum}.</source>
        <translation>الحد الأقصى {maximum}.</translation>
    </message>
    <message>
        <source>Choose one of the options.</source>
        <translation>اختر أحد الخيارات.</translation>
    </message>
    <message>
        <source>Choose only from the options.</source>
        <translation>اختر من الخيارات فقط.</translation>
    </message>
    <message>
        <source>Choose each option only once.</source>
        <translation>اختر كل خيار مرة واحدة فقط.</translation>
    </message>
    <message>
        <source>Choose at most {count}.</source>
        <translation>اختر {count} على الأكثر.</translation>
    </message>
    <message>
        <source>Enter at least {count} characters.</source>
        <translation>أدخل {count} أحرف على الأقل.</translation>
    </message>
    <message>
        <source>Enter at most {count} characters.</source>
        <translation>أدخل {count} أحرف على الأكثر.</translation>
    </message>
    <message>
        <source>Enter a date as YYYY-MM-DD.</source>
        <translation>أدخل تاريخًا بالصيغة YYYY-MM-DD.</translation>
    </message>
    <message>
        <source>Enter a date and time with an offset, such as 2026-05-01T09:30:00+02:00.</source>
        <translation>أدخل تاريخًا ووقتًا مع فرق التوقيت، مثل 2026-05-01T09:30:00+02:00.</translation>
    </message>
    <message>
        <source>Enter an email address, such as name@example.com.</source>
        <translation>أدخل عنوان بريد إلكتروني، مثل name@example.com.</translation>
    </message>
    <message>
        <source>This email address is not in a valid format.</source>
        <translation>عنوان البريد الإلكتروني هذا ليس بصيغة صالحة.</translation>
    </message>
    <message>
        <source>Enter a full address with its scheme, such as https://example.com/.</source>
        <translation>أدخل عنوانًا كاملًا مع مخططه، مثل https://example.com/.</translation>
    </message>
    <message>
        <source>The value is still being checked against the expected pattern.</source>
        <translation>لا يزال التحقق من القيمة مقابل النمط المتوقع جاريًا.</translation>
    </message>
    <message>
        <source>The value could not be checked against the expected pattern in time.</source>
        <translation>تعذّر التحقق من القيمة مقابل النمط المتوقع في الوقت المحدد.</translation>
    </message>
    <message>
        <source>The value does not match the expected pattern.</source>
        <translation>القيمة لا تطابق النمط المتوقع.</translation>
    </message>
    <message>
        <source>Whole number between {low} and {high}.</source>
        <extracomment>Numeric bounds in words, per kind: (both bounds, minimum only, maximum only, neither).</extracomment>
        <translation>عدد صحيح بين {low} و{high}.</translation>
    </message>
    <message>
        <source>Whole number of at least {low}.</source>
        <translation>عدد صحيح لا يقل عن {low}.</translation>
    </message>
    <message>
        <source>Whole number of at most {high}.</source>
        <translation>عدد صحيح لا يزيد على {high}.</translation>
    </message>
    <message>
        <source>Whole number.</source>
        <translation>عدد صحيح.</translation>
    </message>
    <message>
        <source>Number between {low} and {high}.</source>
        <translation>عدد بين {low} و{high}.</translation>
    </message>
    <message>
        <source>Number of at least {low}.</source>
        <translation>عدد لا يقل عن {low}.</translation>
    </message>
    <message>
        <source>Number of at most {high}.</source>
        <translation>عدد لا يزيد على {high}.</translation>
    </message>
    <message>
        <source>Number.</source>
        <translation>عدد.</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>مطلوب.</translation>
    </message>
    <message>
        <source>{low} to {high} characters.</source>
        <translation>من {low} إلى {high} حرفًا.</translation>
    </message>
    <message>
        <source>At least {count} characters.</source>
        <translation>{count} أحرف على الأقل.</translation>
    </message>
    <message>
        <source>At most {count} characters.</source>
        <translation>{count} أحرف على الأكثر.</translation>
    </message>
    <message>
        <source>An email address.</source>
        <translation>عنوان بريد إلكتروني.</translation>
    </message>
    <message>
        <source>A web address.</source>
        <translation>عنوان ويب.</translation>
    </message>
    <message>
        <source>A date.</source>
        <translation>تاريخ.</translation>
    </message>
    <message>
        <source>A date and time.</source>
        <translation>تاريخ ووقت.</translation>
    </message>
    <message>
        <source>Choose {low} to {high}.</source>
        <translation>اختر من {low} إلى {high}.</translation>
    </message>
    <message>
        <source>Choose {count}.</source>
        <translation>اختر {count}.</translation>
    </message>
</context>
<context>
    <name>Widgets</name>
    <message>
        <source>Year</source>
        <translation>السنة</translation>
    </message>
    <message>
        <source>Next month</source>
        <translation>الشهر التالي</translation>
    </message>
    <message>
        <source>Previous month</source>
        <translation>الشهر السابق</translation>
    </message>
    <message>
        <source>{month} {year}</source>
        <translation>{month} {year}</translation>
    </message>
    <message>
        <source>Invisible characters in this value: {names}. It is exactly: {value}</source>
        <extracomment>Sentinel date meaning "no date" in the date pickers (shown as the empty special text): Qt's earliest picker date, so every date from 0100-01-02 on can be shown. Most characters a line edit holds (Qt's default, 32,767, silently cut longer text).</extracomment>
        <translation>أحرف غير مرئية في هذه القيمة: {names}. القيمة بالضبط: {value}</translation>
    </message>
    <message>
        <source>Not set</source>
        <extracomment>Whether the row label is the control's own text (checkbox, group box title). Whether the field is one control named by the field title; otherwise ``widget`` is a group named by the title and each control is named by its option. A label the form shows under ``widget`` (hidden while ``notice_text`` is empty). What ``notice`` says now (:func:`invisible_notice`); part of the accessible description.
----------
The frame: a fixed offset (from the default), or ``None`` for local time.</extracomment>
        <translation>غير محدد</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>نعم</translation>
    </message>
    <message>
        <source>No</source>
        <translation>لا</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>مسح</translation>
    </message>
    <message>
        <source>Clear {field}</source>
        <translation>مسح {field}</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>اختر…</translation>
    </message>
</context>
</TS>