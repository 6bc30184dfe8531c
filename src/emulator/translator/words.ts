// Common words of the languages the emulator detects best by word, not by letter statistics.
// tinyld (n-grams) needs a sentence: on the one to three words of a greeting or a UI string it
// guesses wildly ("Hallo Welt" nl, "Bonjour" fr at 0.14, "Hello" it, "Cancel" nothing) while
// the real service answers them with score 1. Greetings, courtesies, function words and the
// words of user interfaces (save, cancel, settings...) are what short texts are made of, so a
// short text whose words are mostly in one language's list is that language. Pure data and one
// pure function; the order of WORDS is the order in which a tie is broken when nothing else does.

const WORDS: Readonly<Record<string, string>> = {
  en: `the an and or of to in on for with is are was be it this that you we he she they my your our hello hey good morning
    afternoon evening night day bye goodbye thank thanks please yes no ok okay welcome world save cancel delete remove edit open close
    file new settings search help sign log out up name email password user account home back next previous submit continue send
    error warning loading page not found invalid required today tomorrow how what where when why who have has do does can will
    me all more about contact see view show hide add update create copy paste select download upload share print exit quit start
    stop try again sorry friend love time changes change there here files items messages`,
  de: `der die das und oder ein eine ist sind nicht ich du wir sie er es mit von zu im auf für hallo guten morgen tag abend nacht
    gute danke schön bitte ja nein tschüss willkommen welt speichern abbrechen löschen bearbeiten öffnen schließen datei neu neue
    einstellungen suchen suche hilfe anmelden abmelden benutzer passwort konto startseite zurück weiter senden fehler warnung laden
    seite gefunden ungültig erforderlich heute wie was wo wann warum wer haben hat kann wird mein dein alle mehr über kontakt
    anzeigen hinzufügen aktualisieren erstellen kopieren einfügen auswählen herunterladen hochladen teilen drucken beenden starten
    stoppen erneut versuchen entschuldigung freund liebe zeit wiedersehen geht's geht dir änderungen`,
  fr: `le la les un une des et ou de du au en est sont pas je tu nous vous il elle ils avec pour sur dans bonjour bonsoir bonne
    nuit salut merci beaucoup s'il plaît oui non revoir bienvenue monde enregistrer annuler supprimer modifier ouvrir fermer fichier
    nouveau nouvelle paramètres rechercher recherche aide connexion déconnexion connecter utilisateur mot passe compte accueil
    retour suivant précédent envoyer erreur avertissement chargement page introuvable invalide obligatoire aujourd'hui demain
    comment quoi où quand pourquoi qui avoir peut mon ton tous tout plus propos contact afficher ajouter mettre jour créer copier
    coller sélectionner télécharger partager imprimer quitter démarrer arrêter réessayer désolé ami amour temps ça va modifications`,
  es: `el la los las un una de del en es son no yo tú nosotros usted él ella con para por hola buenos buenas días tardes noches
    gracias muchas favor sí adiós bienvenido bienvenida mundo guardar cancelar eliminar borrar editar abrir cerrar archivo nuevo
    nueva configuración ajustes buscar búsqueda ayuda iniciar sesión usuario contraseña cuenta inicio atrás siguiente anterior
    enviar error advertencia cargando página encontrada inválido obligatorio hoy mañana cómo qué dónde cuándo quién tener tiene
    puede mi tu todos más acerca contacto mostrar añadir agregar actualizar crear copiar pegar seleccionar descargar subir
    compartir imprimir salir detener intentar nuevo siento amigo amor tiempo tal está cambios`,
  it: `il lo la gli le un una di del da in è sono non io tu noi voi lui lei con per su ciao buongiorno buonasera buonanotte grazie
    mille prego favore sì arrivederci benvenuto benvenuta mondo salva salvare annulla elimina cancella modifica apri chiudi nuovo
    nuova impostazioni cerca ricerca aiuto accedi esci utente indietro avanti successivo precedente invia errore avviso caricamento
    pagina trovata valido obbligatorio oggi domani come cosa dove quando perché chi avere ha può mio tuo tutti più informazioni
    contatto mostra aggiungi aggiorna crea copia incolla seleziona scarica carica condividi stampa avvia ferma riprova scusa amico
    amore tempo sta bene modifiche`,
  pt: `os as um uma ou do da em é são não eu nós você ele ela com para por olá oi bom boa dia tarde noite obrigado obrigada muito
    sim tchau adeus bem vindo vinda mundo salvar guardar cancelar excluir apagar editar abrir fechar arquivo ficheiro novo nova
    configurações definições pesquisar buscar ajuda entrar sair usuário utilizador senha conta início voltar próximo anterior enviar
    erro aviso carregando página encontrada inválido obrigatório hoje amanhã como onde quando porquê quem ter tem pode meu teu todos
    mais sobre contato mostrar adicionar atualizar criar copiar colar selecionar baixar transferir compartilhar partilhar imprimir
    parar tentar novamente desculpe amigo amor tempo tudo alterações`,
  nl: `de het een en of van te in op voor met is zijn niet ik jij je wij we hij zij hallo goedemorgen goedemiddag goedenavond
    goedenacht goede morgen dag dank wel bedankt alsjeblieft alstublieft ja nee doei tot ziens welkom wereld opslaan annuleren
    verwijderen bewerken openen sluiten bestand nieuw nieuwe instellingen zoeken hulp inloggen uitloggen aanmelden afmelden
    gebruiker wachtwoord terug volgende vorige verzenden fout waarschuwing laden pagina gevonden ongeldig verplicht vandaag hoe wat
    waar wanneer waarom wie hebben heeft kan mijn jouw alle meer over tonen toevoegen bijwerken maken kopiëren plakken selecteren
    downloaden uploaden delen afdrukken stoppen opnieuw proberen vriend liefde tijd gaat het wijzigingen`,
  sv: `och eller en ett är inte jag du vi han hon de med för på till av hej hallå god morgon dag kväll natt tack så mycket ja nej
    hejdå välkommen världen spara avbryt ta bort radera redigera öppna stäng fil ny nya inställningar sök sökning hjälp logga
    användare lösenord konto hem tillbaka nästa föregående skicka fel varning laddar sida hittades ogiltig obligatorisk idag imorgon
    hur vad var när varför vem har kan min din alla mer om kontakt visa lägg uppdatera skapa kopiera klistra välj ladda ner dela
    skriv avsluta starta stoppa försök igen förlåt vän kärlek tid ändringar`,
  da: `og eller en et er ikke jeg du vi han hun de med for på til af hej godmorgen god morgen dag aften nat tak mange ja nej farvel
    velkommen verden gem annuller slet rediger åbn luk fil ny nye indstillinger søg hjælp log ind ud bruger adgangskode konto hjem
    tilbage næste forrige send fejl advarsel indlæser side fundet ugyldig påkrævet hvordan hvad hvor hvornår hvorfor hvem har kan
    min din alle mere om kontakt vis tilføj opdater opret kopier indsæt vælg download del udskriv afslut start stop prøv igen
    undskyld ven kærlighed tid ændringer`,
  nb: `og eller en et er ikke jeg du vi han hun de med for på til av hei god morgen dag kveld natt takk mange ja nei ha det
    velkommen verden lagre avbryt slett rediger åpne lukk fil ny nye innstillinger søk hjelp logg inn ut bruker passord konto hjem
    tilbake neste forrige send feil advarsel laster side funnet ugyldig påkrevd hvordan hva hvor når hvorfor hvem har kan min din
    alle mer om kontakt vis legg oppdater opprett kopier lim velg last ned del skriv avslutt start stopp prøv igjen beklager venn
    kjærlighet tid endringer`,
  fi: `ja tai on ei minä sinä me hän he kanssa hyvää huomenta päivää iltaa yötä kiitos paljon kyllä näkemiin hei moi tervetuloa
    maailma tallenna peruuta poista muokkaa avaa sulje tiedosto uusi asetukset hae haku ohje kirjaudu sisään ulos käyttäjä salasana
    tili koti takaisin seuraava edellinen lähetä virhe varoitus ladataan sivu löytynyt virheellinen pakollinen tänään huomenna miten
    mitä missä milloin miksi kuka voi kaikki lisää tietoja yhteystiedot näytä päivitä luo kopioi liitä valitse lataa jaa tulosta
    lopeta aloita pysäytä yritä uudelleen anteeksi ystävä rakkaus aika muutokset`,
  pl: `lub na do od jest są nie ja ty my on ona oni dla cześć dzień dobry dobranoc wieczór dziękuję bardzo proszę tak widzenia
    witaj witamy świat zapisz anuluj usuń edytuj otwórz zamknij plik nowy nowa ustawienia szukaj wyszukaj pomoc zaloguj wyloguj
    się użytkownik hasło konto strona główna wstecz dalej następny poprzedni wyślij błąd ostrzeżenie ładowanie znaleziono
    nieprawidłowy wymagane dzisiaj jutro jak co gdzie kiedy dlaczego kto mieć ma może mój twój wszystkie więcej kontakt pokaż
    dodaj aktualizuj utwórz kopiuj wklej wybierz pobierz udostępnij drukuj zakończ uruchom zatrzymaj spróbuj ponownie
    przepraszam przyjaciel miłość czas zmiany`,
  cs: `nebo na do od je jsou ne já ty my on ona pro ahoj dobré ráno den dobrý večer dobrou noc děkuji moc prosím ano shledanou
    vítejte svět uložit zrušit smazat odstranit upravit otevřít zavřít soubor nový nová nastavení hledat hledání nápověda přihlásit
    odhlásit uživatel heslo účet domů zpět další předchozí odeslat chyba varování načítání stránka nenalezeno neplatný povinné dnes
    zítra jak co kde kdy proč kdo mít má může můj tvůj všechny více kontakt zobrazit přidat aktualizovat vytvořit kopírovat vložit
    vybrat stáhnout sdílet tisk ukončit spustit zastavit zkusit znovu promiňte přítel láska čas změny`,
  tr: `ve veya bir bu şu ben sen biz onlar ile için merhaba selam günaydın iyi akşamlar geceler teşekkürler teşekkür ederim lütfen
    evet hayır hoşça kal güle hoş geldiniz dünya kaydet iptal sil düzenle aç kapat dosya yeni ayarlar ara arama yardım giriş yap
    çıkış kullanıcı şifre parola hesap ana sayfa geri ileri sonraki önceki gönder hata uyarı yükleniyor bulunamadı geçersiz gerekli
    bugün yarın nasıl ne nerede zaman neden kim var yok benim senin tüm daha fazla hakkında iletişim göster ekle güncelle oluştur
    kopyala yapıştır seç indir paylaş yazdır başlat durdur tekrar dene özür dilerim arkadaş aşk nasılsın değişiklikler`,
  ro: `și sau un este sunt nu eu tu noi el ea cu pentru pe în de la bună ziua dimineața seara noapte mulțumesc mult vă rog te da
    revedere bine ați venit lume salvează anulează șterge editează deschide închide fișier nou nouă setări caută căutare ajutor
    autentificare deconectare utilizator parolă cont acasă înapoi următor anterior trimite eroare avertisment se încarcă pagină
    negăsit invalid obligatoriu azi astăzi mâine cum ce unde când cine are poate meu tău toate mai despre contact arată adaugă
    actualizează creează copiază lipește selectează descarcă distribuie tipărește ieșire pornește oprește încearcă din nou scuze
    prieten dragoste timp salut faci modificări`,
  hu: `és vagy egy az nem én te mi ők val vel számára jó reggelt napot estét éjszakát köszönöm szépen kérem igen
    viszontlátásra szia helló üdvözöljük világ mentés mégse törlés szerkesztés megnyitás bezárás fájl új beállítások keresés súgó
    segítség bejelentkezés kijelentkezés felhasználó jelszó fiók kezdőlap vissza tovább következő előző küldés hiba figyelmeztetés
    betöltés oldal található érvénytelen kötelező ma holnap hogyan mit hol mikor miért ki van lehet összes több névjegy kapcsolat
    megjelenítés hozzáadás frissítés létrehozás másolás beillesztés kiválasztás letöltés feltöltés megosztás nyomtatás kilépés
    indítás leállítás próbálja újra bocsánat barát szerelem idő módosítások`,
  id: `dan atau yang di ke dari ini itu adalah tidak saya aku kamu kami kita dia mereka dengan untuk halo hai selamat pagi siang
    sore malam terima kasih banyak tolong silakan ya sampai jumpa datang dunia simpan batal hapus ubah buka tutup berkas baru
    pengaturan cari pencarian bantuan masuk keluar pengguna kata sandi akun beranda kembali berikutnya sebelumnya kirim kesalahan
    peringatan memuat halaman ditemukan wajib hari besok bagaimana apa mana kapan mengapa siapa punya bisa semua lebih tentang
    kontak tampilkan tambah perbarui buat salin tempel pilih unduh unggah bagikan cetak mulai berhenti coba lagi maaf teman cinta
    waktu kabar perubahan`,
  vi: `và hoặc một là không tôi bạn chúng ta anh chị em với cho xin chào buổi sáng tối chúc ngủ ngon cảm ơn rất nhiều làm vâng có
    tạm biệt mừng thế giới lưu hủy xóa sửa mở đóng tệp mới cài đặt tìm kiếm trợ giúp đăng nhập xuất người dùng mật khẩu tài khoản
    trang chủ quay lại tiếp theo trước gửi lỗi cảnh báo đang tải thấy hợp lệ bắt buộc hôm nay ngày mai thế nào gì đâu khi tại sao
    ai tất cả thêm về liên hệ hiển thị cập nhật tạo sao chép dán chọn xuống lên chia sẻ in thoát đầu dừng thử lỗi bè tình yêu
    thời gian`,
  ru: `и или в на с не я ты мы он она они для привет здравствуйте доброе утро добрый день вечер спокойной ночи спасибо большое
    пожалуйста да нет до свидания добро пожаловать мир сохранить отмена отменить удалить изменить редактировать открыть закрыть
    файл новый новая настройки поиск найти помощь справка войти выйти вход выход пользователь пароль учётная запись главная назад
    далее следующий предыдущий отправить ошибка предупреждение загрузка страница найдено неверный обязательно сегодня завтра как
    что где когда почему кто есть может мой твой все ещё больше о контакты показать добавить обновить создать копировать
    вставить выбрать скачать загрузить поделиться печать запустить остановить повторить извините друг любовь время дела изменения`,
  uk: `і та або в на з не я ти ми він вона вони для привіт доброго ранку добрий день вечір добраніч дякую дуже будь ласка так ні
    до побачення ласкаво просимо світ зберегти скасувати видалити редагувати відкрити закрити файл новий нова налаштування пошук
    шукати допомога увійти вийти користувач пароль обліковий запис головна назад далі наступний попередній надіслати помилка
    попередження завантаження сторінка знайдено недійсний обов'язково сьогодні завтра як що де коли чому хто є може мій твій всі
    більше про контакти показати додати оновити створити копіювати вставити вибрати завантажити поділитися друк запустити
    зупинити спробувати знову вибачте друг любов час справи зміни`,
  bg: `и или в на с не аз ти ние той тя те за здравей здравейте добро утро добър ден вечер лека нощ благодаря много моля да
    довиждане добре дошли свят запази запиши отказ изтрий редактирай отвори затвори файл нов нова настройки търсене търси помощ
    вход изход потребител парола профил начало назад напред следващ предишен изпрати грешка предупреждение зареждане страница
    намерена невалиден задължително днес утре как какво къде кога защо кой има може мой твой всички още повече контакти покажи
    добави обнови създай копирай постави избери изтегли сподели печат стартирай спри опитай отново съжалявам приятел любов време
    си промени`,
};

/** a word: letters and marks; apostrophes and hyphens separate words (l'eau, bem-vindo) */
const WORD = /[\p{L}\p{M}]+/gu;

function words(text: string): string[] {
  // one-letter words (a, I, y, à, v, и) belong to too many languages to say anything
  return (text.normalize('NFC').toLowerCase().match(WORD) ?? []).filter((w) => [...w].length > 1);
}

/** word -> the languages whose list has it, in the order of WORDS */
const INDEX = new Map<string, string[]>();
for (const [language, list] of Object.entries(WORDS)) {
  for (const w of new Set(words(list))) {
    const langs = INDEX.get(w);
    if (langs) langs.push(language);
    else INDEX.set(w, [language]);
  }
}

/** texts of more words are left to the statistical detector, which reads a sentence well */
const MAX_DICTIONARY_WORDS = 8;

interface WordGuess {
  /** the languages with the most known words, in the order of WORDS (more than one: a tie) */
  languages: string[];
  /** the share of the text's words they know, in (0, 1] */
  share: number;
}

/**
 * The language(s) of a short text by its words: those knowing the most of its words, when they
 * know at least half of them. Undefined for a text of more than MAX_DICTIONARY_WORDS words, or
 * whose words are mostly in no list (a name, a word of another language).
 */
export function guessByWords(text: string): WordGuess | undefined {
  const ws = words(text);
  if (ws.length === 0 || ws.length > MAX_DICTIONARY_WORDS) return undefined;
  const hits = new Map<string, number>();
  for (const w of ws) for (const l of INDEX.get(w) ?? []) hits.set(l, (hits.get(l) ?? 0) + 1);
  let best = 0;
  for (const n of hits.values()) best = Math.max(best, n);
  if (best === 0 || best * 2 < ws.length) return undefined;
  const languages = Object.keys(WORDS).filter((l) => hits.get(l) === best);
  return { languages, share: best / ws.length };
}
