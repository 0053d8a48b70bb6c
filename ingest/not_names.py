"""Word lists recognition (ingest/recognition.py) checks a capitalised word against before proposing it as a name.

People capitalise far more than names: the first word of a sentence or of a line, weekdays and months (in English),
feasts, laughter and greetings in chats, brands, nationalities, school subjects, titles. These lists say which of
those words are never a person, in Spanish, English and French, folded (accents stripped, lower case) so they are
compared as `graph.textnorm.fold` leaves a word. `KNOWN_PLACES` goes the other way: well-known places (countries,
regions, states, big cities, landmarks) whose names are places whatever the sentence around them says; `COMMON_EN`,
common English words, tells an English entry's emphasis, products and titles from its names. Words that are also
common first names ("Victoria", "Georgia", "Santiago"; "Grace", "Mark") are left out of these lists on purpose.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from graph.textnorm import fold


def _words(text: str) -> frozenset[str]:
    return frozenset(fold(w) for w in text.split())


def _phrases(text: str) -> frozenset[tuple[str, ...]]:
    """Phrases one a line or separated by ';', each as its folded tokens."""
    out = set()
    for line in text.splitlines():
        for phrase in line.split(";"):
            if phrase.strip():
                out.add(tokens(phrase))
    return frozenset(out)


def tokens(name: str) -> tuple[str, ...]:
    """A name as folded word tokens, split as the tokenizer splits it ("Saint-Tropez" → saint, -, tropez)."""
    return tuple(re.findall(r"\w+|[^\w\s]", fold(name).replace("’", "'")))


def stop_words(lang: str | None = None) -> frozenset[str]:
    """Function words of `lang` (spaCy's stop lists; of all three languages when None): a capitalised one starts a
    sentence or a title and is never a name by itself. Built anew each call, so a caller asks once per batch."""
    chosen = [lang] if lang in ("es", "en", "fr") else ["es", "en", "fr"]
    return frozenset(fold(w) for lg in chosen for w in _spacy_stop_words(lg)) - {"will"}


def _spacy_stop_words(lang: str) -> set[str]:
    """spaCy's `spacy/lang/<lang>/stop_words.py`, run on its own: importing it as `spacy.lang.fr.stop_words` would
    import the French language package first, whose tokenizer exceptions take seconds to build."""
    spacy_spec = importlib.util.find_spec("spacy")
    assert spacy_spec is not None and spacy_spec.origin is not None
    path = Path(spacy_spec.origin).parent / "lang" / lang / "stop_words.py"
    spec = importlib.util.spec_from_file_location(f"memora_stop_words_{lang}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return set(module.STOP_WORDS)


# Greetings, answers, interjections and chat shorthand, in any language; laughter is matched by LAUGHTER.
INTERJECTIONS = _words(
    """
    hey hi hello hiya howdy bye goodbye yo yes yeah yea yep yup nope nah ok okay okey k oh ooh ah ahh aw aww awww
    wow woah whoa omg omfg lol lmao lmfao rofl ugh uh um umm hmm hm huh oops yay yikes meh gosh damn dang wtf idk
    btw tbh imo fyi asap pls plz thx thanks thank sorry congrats congratulations cheers welcome please hooray
    bravo xoxo xd brb ttyl gg absolutely definitely totally certainly sure exactly indeed honestly seriously
    literally basically actually anyway alright great nice cool awesome amazing perfect lovely fantastic wonderful
    happy merry dear good morning afternoon evening night
    woohoo woo yippee yayy im ive id dont cant wont didnt doesnt isnt wasnt thats whats theres lets ya ur gonna
    wanna gotta
    hola adiós adios chao chau buenas gracias porfa vale venga vaya ostras hostia uf buf puf joder guau bah
    anda oye pues bueno claro genial perfecto felicidades enhorabuena besos besitos abrazo abrazos ay
    salut coucou bonjour bonsoir merci oui ouais non bisous bises mdr ptdr bref zut oups chut allez voilà bravo
    """
)
LAUGHTER = re.compile(r"^(?:[hj][aeiou]){2,}h?$|^(?:[aeiou]h){2,}$|^(?:l+o+)+l+$|^x+d+$|^k{3,}$")

WEEKDAYS_MONTHS = _words(
    """
    lunes martes miercoles jueves viernes sabado domingo enero febrero marzo abril mayo junio julio agosto
    septiembre setiembre octubre noviembre diciembre
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays
    saturdays sundays january february march april may june july august september october november december
    lundi mardi mercredi jeudi vendredi samedi dimanche janvier fevrier mars avril mai juin juillet aout septembre
    octobre novembre decembre tues tue wed thur thurs fri
    """
)
# Feasts and days with a name: any name overlapping one of them in the text is the feast, not a person.
HOLIDAYS = _phrases(
    """
    navidad; navidades; nochebuena; nochevieja; año nuevo; día de reyes; noche de reyes; reyes magos
    semana santa; jueves santo; viernes santo; sábado santo; domingo de ramos; domingo de resurrección; pascua
    día de la madre; día del padre; día de los enamorados; san valentín; todos los santos; día de todos los santos
    día de muertos; día de los muertos; noche de san juan; víspera de san juan; día de san juan; carnaval; carnavales
    día de la hispanidad; día del pilar; fin de año; noche vieja; noche buena; cumpleaños
    christmas; christmas eve; christmas day; xmas; new year; new years; new year's; new year's eve; new years eve
    new year's day; halloween; thanksgiving; easter; easter sunday; good friday; valentine's day; valentines day
    valentine's; mother's day; father's day; mothers day; fathers day; independence day; fourth of july
    labor day; memorial day; boxing day; st patrick's day; saint patrick's day; hanukkah; diwali; ramadan; eid
    passover; lent; ash wednesday; black friday; cyber monday; super bowl sunday; birthday; spring break
    noël; réveillon; nouvel an; jour de l'an; pâques; toussaint; saint-valentin; fête des mères; fête des pères
    quatorze juillet; fête nationale; épiphanie; chandeleur; mardi gras; pentecôte; ascension
    """
)

GOD = _words(
    "dios dieu god lord cristo christ allah virgen buddhism christianity islam judaism hinduism catholicism budismo "
    "cristianismo judaísmo hinduismo catolicismo bouddhisme christianisme judaïsme"
)

# Nationalities and languages: capitalised in English ("my Italian class", "in Spanish"), never a person.
DEMONYMS = _words(
    """
    american americans british english scottish welsh irish spanish spaniard spaniards french german germans
    italian italians portuguese greek greeks dutch belgian swiss austrian swedish norwegian danish finnish
    icelandic polish czech slovak hungarian romanian bulgarian serbian croatian bosnian albanian albanians
    ukrainian russian russians turkish armenian georgian lebanese israeli arab arabic arabs persian iranian
    iraqi syrian egyptian moroccan tunisian algerian nigerian kenyan ethiopian ghanaian african africans
    indian indians pakistani bangladeshi nepali chinese japanese korean koreans
    vietnamese thai filipino filipina indonesian malaysian singaporean australian australians kiwi canadian
    canadians mexican mexicans cuban dominican colombian venezuelan peruvian chilean argentinian
    argentine brazilian brazilians uruguayan paraguayan bolivian ecuadorian latino latina latinos latinas
    hispanic european europeans asian asians caribbean mediterranean scandinavian nordic balkan
    catalan basque galician andalusian castilian cajun creole hawaiian texan californian parisian
    latin hebrew hindi urdu bengali mandarin cantonese tagalog swahili yiddish esperanto
    """
)

# School and university subjects ("majoring in Economics").
SUBJECTS = _words(
    """
    economics microeconomics macroeconomics psychology sociology philosophy history geography biology chemistry
    physics mathematics maths math calculus algebra geometry statistics literature linguistics anthropology
    engineering medicine nursing law business finance accounting marketing management architecture design
    journalism politics biochemistry neuroscience astronomy genetics ecology data analytics science computer studies
    """
)

# Titles before a name: never part of it ("Sir Terry Pratchett", "la doctora Etxeberria").
HONORIFICS = _words(
    """
    sir dame lady lord dr doctor doctora prof professor profesor profesora mr mrs ms miss mister missus
    señor señora señorita sr sra srta dña doña don madame monsieur mademoiselle mme mlle mr. dr. pr capitán
    captain coach uncle aunt tío tía tio tia
    """
)

# Well-known brands, apps, products and clubs people name in diaries and chats: things, not people.
BRANDS = _words(
    """
    google youtube gmail android chrome apple iphone ipad macbook airpods itunes icloud microsoft windows
    xbox excel outlook teams linkedin skype facebook instagram insta whatsapp messenger threads tiktok snapchat
    twitter telegram signal discord reddit pinterest tumblr twitch zoom slack spotify netflix hulu hbo
    amazon kindle prime ebay etsy paypal venmo uber lyft airbnb booking expedia tripadvisor groupon doordash
    grubhub deliveroo glovo justeat wallapop tinder bumble hinge duolingo chatgpt openai samsung galaxy huawei
    xiaomi sony playstation nintendo switch lg nokia motorola dell lenovo asus acer intel nvidia tesla ikea
    walmart target costco kroger walgreens cvs sephora ulta starbucks mcdonalds mcdonald's burger kfc
    subway chipotle dominos domino's pizza hut dunkin wendy's taco bell coca-cola coke pepsi sprite fanta redbull
    nespresso heineken corona budweiser nike adidas puma reebok vans converse mango primark uniqlo gucci
    prada dior vuitton hermes rolex lego barbie netflix nivea dove loreal l'oreal garnier
    maybelline neutrogena cerave cetaphil eucerin olaplex pantene schwarzkopf kerastase clinique lancome
    toyota honda nissan mazda ford chevrolet chevy jeep bmw audi volkswagen vw porsche ferrari fiat
    seat renault peugeot citroen opel kia hyundai volvo skoda dacia boeing airbus ryanair easyjet
    vueling iberia emirates lufthansa qantas etihad delta jetblue renfe blablacar mercadona carrefour
    lidl aldi eroski alcampo decathlon fnac movistar vodafone telefonica
    bbva caixabank visa mastercard amex
    barça barca athletic atleti atlético betis osasuna alavés celta espanyol juventus juve arsenal lakers yankees
    knicks celtics inter
    """
)

# Last words that make a capitalised name a place ("Zion National Park", "Acropolis Museum"), or its first words
# ("Lake Tahoe", "Isla de las Palomas", "calle Mayor", "Playa de Bolonia").
PLACE_LAST = _words(
    """
    park parks street st avenue ave road rd boulevard blvd lane drive square plaza place quarter district
    village town city county state province island islands isle beach bay coast cove harbour harbor port lake
    lakes river falls springs spring valley canyon mountain mountains mount hill hills peak ridge desert forest
    woods trail bridge tower castle palace cathedral church chapel abbey temple mosque synagogue museum gallery
    zoo aquarium garden gardens stadium arena center centre mall market airport station terminal hospital clinic
    baths farm farms ranch vineyard winery
    university college school academy institute library hotel resort spa inn motel lodge cafe café restaurant
    bar pub club theatre theater cinema pier marina reserve monument memorial cemetery
    straße strasse platz
    """
)
PLACE_FIRST = _words(
    """
    lake mount mt cape fort port isle san santa santo sant saint st sainte são
    calle avenida plaza paseo playa cala isla islas monte sierra río rio lago lagos puerto puerta parque barrio
    colegio instituto universidad hospital museo teatro estadio aeropuerto estación catedral iglesia ermita
    castillo palacio mercado jardín jardines cementerio bahía valle pico peña
    rue place avenue boulevard quai plage lac mont île parc musée gare église château cathédrale pont
    """
)
# Last words of events, organisations and works: things ("Golden Globes", "Australian Open", "Super Bowl").
THING_LAST = _words(
    """
    open cup bowl awards award globes oscars grammys emmys festival fest gala show series season league
    championship championships tournament games olympics expo fair conference summit company co inc ltd llc corp
    corporation bank group foundation association society union band orchestra choir team fc records studios
    airlines airways motors magazine times post news channel network app round
    cream serum gel oil shampoo conditioner spray mist lotion mask balm cleanser toner moisturizer sunscreen
    phone pro max plus mini watch edition
    """
)

_PLACES = """
afghanistan; albania; algeria; andorra; angola; argentina; armenia; australia; austria; azerbaijan; bahamas
bahrain; bangladesh; barbados; belarus; belgium; belize; benin; bhutan; bolivia; bosnia; botswana; brazil; brunei
bulgaria; burkina faso; burundi; cambodia; cameroon; canada; cape verde; chile; china; colombia; congo; costa rica
croatia; cuba; cyprus; czech republic; czechia; denmark; djibouti; dominican republic; ecuador; egypt; el salvador
eritrea; estonia; eswatini; ethiopia; fiji; finland; france; gabon; gambia; ghana; greece; grenada; guatemala
guinea; guyana; haiti; honduras; hungary; iceland; india; indonesia; iran; iraq; ireland; italy; ivory coast
jamaica; japan; kazakhstan; kenya; kosovo; kuwait; kyrgyzstan; laos; latvia; lebanon; lesotho; liberia; libya
liechtenstein; lithuania; luxembourg; madagascar; malawi; malaysia; maldives; mali; malta; mauritania; mauritius
mexico; moldova; monaco; mongolia; montenegro; morocco; mozambique; myanmar; burma; namibia; nepal; netherlands
holland; new zealand; nicaragua; niger; nigeria; north korea; north macedonia; norway; oman; pakistan; palestine
panama; papua new guinea; paraguay; peru; philippines; poland; portugal; puerto rico; qatar; romania; russia
rwanda; samoa; san marino; saudi arabia; senegal; serbia; seychelles; sierra leone; singapore; slovakia; slovenia
somalia; south africa; south korea; korea; south sudan; spain; sri lanka; sudan; suriname; sweden; switzerland
syria; taiwan; tajikistan; tanzania; thailand; togo; tonga; trinidad; tobago; tunisia; turkey; türkiye
turkmenistan; uganda; ukraine; united arab emirates; uae; united kingdom; uk; great britain; britain; england
scotland; wales; northern ireland; united states; united states of america; usa; us; america; uruguay; uzbekistan
vanuatu; vatican; venezuela; vietnam; yemen; zambia; zimbabwe; greenland; bermuda; turks and caicos; aruba
curacao; tahiti; bali; ibiza; mallorca; majorca; menorca; tenerife; gran canaria; lanzarote; fuerteventura
canary islands; balearic islands; sicily; sardinia; corsica; crete; santorini; mykonos; capri; madeira; azores
hawaii; maui; oahu; cancun; cancún; tulum; phuket; zanzibar

alabama; alaska; arizona; arkansas; california; colorado; connecticut; delaware; florida; idaho; illinois
indiana; iowa; kansas; kentucky; louisiana; maine; maryland; massachusetts; michigan; minnesota; mississippi
missouri; montana; nebraska; nevada; new hampshire; new jersey; new mexico; new york; north carolina
north dakota; ohio; oklahoma; oregon; pennsylvania; rhode island; south carolina; south dakota; tennessee; texas
utah; vermont; west virginia; wisconsin; wyoming; ontario; quebec; québec; british columbia; alberta; manitoba
saskatchewan; nova scotia; new brunswick; newfoundland; yukon

europe; asia; africa; north america; south america; latin america; central america; oceania; antarctica
middle east; far east; scandinavia; balkans; caribbean; patagonia; siberia; sahara; alps; andes; himalayas
pyrenees; pirineo; pirineos; pyrénées; rockies; rocky mountains; appalachians; amazonia; atlantic; pacific
mediterranean sea; indian ocean
arctic; north sea; baltic; silicon valley; midwest; east coast; west coast; new england; bay area; riviera
costa brava; costa del sol; algarve; provence; normandy; brittany; tuscany; bavaria; catalonia; andalusia

new york city; nyc; los angeles; san francisco; san diego; san jose; chicago; houston; miami; boston; seattle
las vegas; vegas; denver; atlanta; philadelphia; detroit; dallas; orlando; new orleans; nashville; portland
phoenix; san antonio; salt lake city; honolulu; baltimore; pittsburgh; minneapolis; st. louis; kansas city
sacramento; oakland; brooklyn; manhattan; queens; bronx; hollywood; malibu; napa; aspen; tampa; fort lauderdale
key west; galveston; albuquerque; tucson; anchorage; toronto; montreal; montréal; vancouver; ottawa; calgary
mexico city; guadalajara; monterrey; havana; la habana; bogotá; bogota; medellín; medellin; cartagena; lima
cusco; quito; caracas; buenos aires; montevideo; rio de janeiro; rio; são paulo; sao paulo; brasília
london; londres; londra; manchester; liverpool; edinburgh; glasgow; birmingham; oxford; cambridge; bristol
brighton; dublin; belfast; cardiff; paris; lyon; marseille; marsella; toulouse; nice; bordeaux; burdeos; lille
nantes; strasbourg; estrasburgo; montpellier; rennes; grenoble; biarritz; bayonne; avignon; cannes; versailles
berlin; berlín; munich; múnich; munchen; münchen; hamburg; hamburgo; frankfurt; fráncfort; cologne; colonia
köln; stuttgart; düsseldorf; dresden; leipzig; vienna; viena; wien; zurich; zúrich; geneva; ginebra; genève
bern; basel; amsterdam; ámsterdam; rotterdam; the hague; brussels; bruselas; bruxelles; antwerp; bruges
copenhagen; copenhague; stockholm; estocolmo; oslo; helsinki; reykjavik; warsaw; varsovia; krakow; cracovia
prague; praga; budapest; bratislava; ljubljana; zagreb; belgrade; belgrado; bucharest; bucarest
athens; atenas; thessaloniki; istanbul; estambul; ankara; moscow; moscú; moscou; saint petersburg; kyiv; kiev
rome; roma; milan; milán; milano; naples; nápoles; napoli; firenze; venice; venecia; venise
venezia; turin; turín; torino; bologna; bolonia; verona; pisa; genoa; génova; lisbon; lisboa; lisbonne; porto
oporto; faro; valletta; monte carlo; luxemburgo
cairo; el cairo; marrakech; marrakesh; casablanca; tangier; tánger; tangiers; fez; rabat; tunis; algiers; lagos
nairobi; cape town; johannesburg; dakar; addis ababa
dubai; abu dhabi; doha; riyadh; jerusalem; jerusalén; tel aviv; beirut; amman; tehran; teherán
tokyo; tokio; kyoto; osaka; seoul; seúl; beijing; pekín; shanghai; shanghái; hong kong; macau; taipei
singapur; bangkok; hanoi; ho chi minh city; manila; jakarta; kuala lumpur; mumbai; bombay; delhi; new delhi
kathmandu; sydney; melbourne; brisbane; perth; auckland; wellington
tirana; yerevan; baku; minsk; sarajevo; nicosia; tallinn; tbilisi; riga; vilnius; skopje; chisinau; podgorica
pristina; kabul; islamabad; karachi; lahore; dhaka; colombo; thimphu; ulaanbaatar; tashkent; astana; almaty
bishkek; dushanbe; ashgabat; baghdad; damascus; kuwait city; muscat; manama; sanaa; khartoum; tripoli; accra
abuja; kinshasa; luanda; kampala; kigali; dar es salaam; lusaka; harare; maputo; windhoek; gaborone; antananarivo
phnom penh; vientiane; naypyidaw; yangon; bandar seri begawan; port moresby; suva; canberra; guatemala city
tegucigalpa; managua; san josé; panama city; santo domingo; port-au-prince; kingston; nassau; bridgetown
paramaribo; georgetown; asunción; la paz; sucre
estados unidos; eeuu; ee.uu; reino unido; nueva york; nueva zelanda; nueva orleans; alemania; francia; italia
grecia; inglaterra; escocia; gales; irlanda; suiza; suecia; noruega; dinamarca; finlandia; polonia; rusia
ucrania; turquía; marruecos; egipto; japón; tailandia; corea; méxico; méjico; perú; brasil; canadá; bélgica
países bajos; hungría; croacia; rumanía; islandia; escandinavia; europa; áfrica; américa; oceanía; sudáfrica
filipinas; malasia; jordania; líbano; siria; irak; irán; arabia saudí; emiratos árabes; catar; kenia; etiopía
argelia; túnez; libia; caribe; allemagne; angleterre; espagne; italie; grèce; suisse; suède; norvège; danemark
pologne; russie; turquie; maroc; égypte; japon; chine; inde; mexique; pérou; brésil; états-unis; royaume-uni
belgique; pays-bas; autriche; hongrie; irlande; écosse; islande; afrique; amérique; asie; australie; tunisie
algérie; sénégal; liban; syrie

madrid; barcelona; valencia; valència; sevilla; seville; zaragoza; málaga; malaga; murcia; palma; palma de mallorca
las palmas; bilbao; alicante; córdoba; cordoba; valladolid; vigo; gijón; gijon; hospitalet; vitoria
vitoria-gasteiz; gasteiz; a coruña; la coruña; coruña; granada; elche; oviedo; badalona; cartagena; terrassa
jerez; jerez de la frontera; sabadell; móstoles; santa cruz de tenerife; pamplona; iruña; almería; almeria
alcalá de henares; fuenlabrada; leganés; getafe; burgos; santander; castellón; albacete; alcorcón; logroño
badajoz; salamanca; huelva; marbella; lleida; lérida; tarragona; cádiz; cadiz; jaén; jaen; ourense; orense
girona; gerona; lugo; cáceres; caceres; melilla; ceuta; guadalajara; toledo; pontevedra; palencia; ciudad real
zamora; ávila; avila; cuenca; huesca; segovia; soria; teruel; san sebastián; san sebastian; donostia
santiago de compostela; benidorm; torrevieja; ronda; tarifa; nerja; sitges; figueres; cadaqués; mérida; ferrol
algeciras; gibraltar; ponferrada; getxo; barakaldo; irún; irun; eibar; zarautz; hondarribia
andalucía; andalucia; aragón; aragon; asturias; cantabria; castilla y león; castilla-la mancha; cataluña
catalunya; extremadura; galicia; la rioja; navarra; país vasco; euskadi; comunidad valenciana; canarias
islas canarias; baleares; islas baleares; álava; araba; vizcaya; bizkaia; guipúzcoa; gipuzkoa

grand canyon; yosemite; yellowstone; zion national park; niagara falls; times square; central park
golden gate bridge; statue of liberty; empire state building; disneyland; disney world; walt disney world
death valley; mount everest; everest; kilimanjaro; machu picchu; eiffel tower; tour eiffel; torre eiffel
louvre; notre-dame; notre dame; montmartre; champs-élysées; big ben; buckingham palace; stonehenge; colosseum
coliseo; vatican city; acropolis; acrópolis; parthenon; partenón; sagrada familia; alhambra; park güell
camino de santiago; la rambla; las ramblas; puerta del sol; gran vía; retiro; picos de europa; sierra nevada
teide; mont-saint-michel; mont saint-michel; côte d'azur; costa azul; appalachian trail
"""
# Place names that are also first names, common words or brands: not known places here.
_NOT_PLACES = _words(
    "georgia jordan victoria florence austin chelsea sydney madison charlotte savannah paris lincoln israel "
    "santiago lourdes mercedes dolores chad phoenix aurora regina eugene augusta adelaide alexandria virginia "
    "carolina salvador leon león guadalupe rosario nice reading mobile bath split male china turkey ronda us"
)
KNOWN_PLACES = frozenset(p for p in _phrases(_PLACES) if not (len(p) == 1 and p[0] in _NOT_PLACES))
# Places written in capitals, known only so written ("US", not "us"; "LA", not "la").
PLACE_ACRONYMS = _words("us usa uk uae nyc la sf dc eeuu")

# Common English words (nouns, verbs, adjectives), for English entries: a capitalised one inside a sentence is
# emphasis, a product or a title ("Yoga class", "Economy", "Death Star"), not a person. Words that are also common
# first names ("grace", "mark", "rose", "will") are left out on purpose.
COMMON_EN = _words(
    """
    ability able absolute abstract academy accent access accident account acid act action active activity actor
    add address adult adventure advice affair afternoon age agency agent agreement air airline airport alarm album
    alcohol alley alpha ancient angel anger angle animal ankle annual answer antique anxiety apartment app apple
    appointment arch area arm army arrow art article artist ash assistant athlete atlantic atmosphere attack
    attention aunt author autumn avenue average award baby back background bacon bad bag bake baker bakery balance
    ball ballet balloon band bank bar barbecue base basement basket basketball bath bathroom battery battle bay
    beach bean bear beard beast beat beautiful beauty bed bedroom bee beef beer bell belt bench berry best beta
    better bible big bike bill bird birth biscuit bitter black blade blank blanket blind block blonde blood bloom
    blossom blow blue blueberry board boat body bold bomb bond bone bonus book boost boot border boss bottle bottom
    boulevard bowl box boy brain branch brand brave bread break breakfast breath breeze brick bride bridge brief
    bright broken brother brown brunch brush bubble bucket buddy budget bug build building bull bullet bunny burger
    burn burst bus bush business busy butcher butter button buy cabin cable cafe cage cake calendar call calm camera
    camp campus can canal candle candy cap capital captain car card care career cargo carpet carrot cart case cash
    casino castle casual cat catch cathedral cattle cause cave ceiling celebration cell cellar center central
    century cereal chain chair chalk challenge chamber champion chance change channel chapter character charge
    charity charm chart chase cheap check cheek cheese chef cherry chess chest chicken chief child chill chip
    chocolate choice choir church cinema circle circus citizen city civil claim class classic clay clean clear
    clerk clever click client cliff climate climb clinic clock close closet cloth cloud club coach coal coast coat
    cocktail cocoa code coffee coin cold collar collection college colony color colour column combat comedy comfort
    comic command comment commission common community company compass complex computer concert condition
    conditioner conference congress connection contest continent contract control cook cookie cool copper copy
    coral core corn corner cottage cotton couch council counter country county couple courage course court cousin
    cove cover cow crab craft crash crazy cream creature credit creek crew cricket crime crisis critic crop cross
    crowd crown cruise crystal cup cupboard cure curious current curtain curve custom customer cut cute cycle dad
    daily dairy damage dance danger dark data date daughter day dead deal dear death debate debt deck deep deer
    degree delay delicious delight delivery demand dentist department desert design desk dessert detail detective
    device devil diamond diary diet digital dinner direct direction dirt dirty discount discovery disease dish
    display distance district dive doctor document dog doll dollar dolphin dome door double dough down dragon drama
    drawer dream dress drink drive driver drop drum dry duck dust duty eagle ear early earth east easy echo economy
    edge editor education effect egg elbow election electric elephant elevator elite embassy emerald emergency
    empire empty end enemy energy engine engineer entrance entry envelope equal error escape essay estate evening
    event evil exam example exchange exercise exhibit exhibition exit expert express extra eye fabric face fact
    factory fair fairy fall false family famous fan fancy fantasy farm farmer fashion fast fat father fault fear
    feast feather feature fee feeling fence festival fever field fight figure file film final finance finger fire
    firm first fish fitness flag flame flash flat flavor flavour fleet flight flood floor flour flower flu fly fog
    folk food fool foot football force forest fork form fortune forum fountain fox frame free freedom fresh friday
    fridge friend frog front frost fruit fuel full fun fund funny fur furniture future gallery game gang garage
    garden garlic gas gate gear gem general gentle ghost giant gift ginger girl glass global glory glove glow glue
    goal goat gold golden golf good goose gossip government grade grain grand grandma grandpa grant grape grass
    grave gravity gray great green grey grill grocery ground group grove growth guard guest guide guilt guitar gulf
    gun gym habit hair half hall hammer hand happy harbor harbour hard harm harvest hat hate head health heart heat
    heaven heavy hedge height hell hello helmet help hero hidden high highway hike hill history hobby hold hole
    holiday holy home honey honor honour hook horizon horn horror horse hospital host hot hotel hour house human
    humor hunger hunt hurricane husband ice icon idea image impact income index industry infinity information ink
    inn insect inside instant institute insurance interest internet interview iron island issue item jacket jail
    jam jar jazz jeans jelly jet jewel job joke journal journey judge juice jump jungle junior jury justice keeper
    kettle key kick kid kind king kingdom kiss kitchen kite knee knife knight knot lab label labor labour lace
    ladder lady lake lamb lamp land lane language laptop large laser late laugh launch laundry law lawyer layer
    lazy lead leader leaf league lean learning leather left leg legend lemon lesson letter level liberty library
    life lift light lime limit line lion lip liquid list little live liver living load loan lobby local lock lodge
    log logic lone long loop lord loss lost loud lounge love lovely low luck lucky lunch lung luxury machine mad
    magazine magic maid mail main major make maker male mall man manager mango manner map marble march marine mark
    market marriage mask mass master match mate math meadow meal meat medal media medical medicine meeting member
    memory menu mercy merry mess message metal method middle midnight mild mile milk mill mind mine minister minor
    minute mirror miss mission mist mister mix mobile mode model modern mom moment monday money monkey monster month
    mood moon morning mother motion motor mountain mouse mouth move movie mud mug murder muscle museum mushroom
    music mystery nail name nation national native natural nature navy neck needle neighbor neighbour nerve nest
    net network new news newspaper nice night noble noise noodle normal north nose note notebook novel number nurse
    nut oak ocean office officer oil old olive onion open opera option orange orchestra order ordinary organ
    origin outside oven owl owner oxygen pace pack package page pain paint painter painting pair palace pale palm
    pan panel panic paper parade parent park parking part partner party pass passenger past pasta path patient
    pattern pause peace peach peak peanut pear pearl pen pencil people pepper perfect performance perfume period
    person pet phone photo piano picnic picture pie piece pig pile pill pillow pilot pin pine pink pipe pirate pit
    pizza place plain plan plane planet plant plastic plate platform play player plaza pleasure plot pocket poem
    poet point poison pole police policy polish pond pool poor pop pope port portrait post pot potato pound powder
    power practice prayer present president press pretty price pride priest prince princess print prison private
    prize problem produce product professor profit program project promise proof property protein proud public
    pudding pulse pump pumpkin punch pupil puppy pure purple purse puzzle quality quarter queen question quick
    quiet quiz rabbit race radio rail rain rainbow ranch random range rank rapid rare rat raw razor reader ready
    real rebel record red reef region relax relief remote rent report republic rescue reserve resort rest
    restaurant result rice rich ride right ring riot rise risk ritual rival river road roast robot rock rocket
    role roll roof room root rope round route row royal rubber rug rule run rush sad safe sail salad salary sale
    salmon salon salt sand sandwich satellite sauce sausage scale scene school science score screen sea seal
    season seat second secret secretary section security seed self senior sense series service session shade
    shadow shake shape share shark sharp sheep sheet shelf shell shelter sheriff shield shift shine ship shirt
    shock shoe shop shore short shot shoulder show shower side sight sign signal silence silent silk silver simple
    singer single sink sister site size skate ski skin skirt sky slave sleep slice slide slow small smart smell
    smile smoke snack snake snow soap soccer social society sock soda sofa soft soil soldier solid solution son
    song soul sound soup source south space spa speaker special speech speed spell spice spider spirit spoon sport
    spot spray spring square squad stable staff stage stair stamp stand star start state station statue steak
    steam steel step stick stock stomach stone stop store storm story stove straight strange stranger straw street
    stress strike string strip strong student studio study style sugar suit suite summit sun sunday sunset super
    supper supply support surf surface surgeon surprise sushi swamp sweet swim swing sword symbol system table
    tail tale talent talk tank tape target task taste tax taxi tea teacher team tear tech teen teeth temple tennis
    tent term test text theater theatre theme theory thief thing thought thread throne thunder ticket tide tiger
    tile timber time tiny tip tire tissue title toast today toe toilet tomato tomorrow tone tongue tool tooth top
    topic torch total touch tour tourist towel tower town toy track trade traffic trail train trainer transfer trap
    travel tray treasure treat tree trend trial tribe trick trip trophy truck true trust truth tube tub tunnel
    turkey turn twin union unit universe university upper urban user valley value van vegetable vehicle velvet
    version vessel veteran vice victim video view village vintage violin virgin virus vision visit visitor voice
    volume vote wage wagon waist wait waiter wake walk wall wallet war warm warning wash waste watch water wave wax
    way weak wealth weapon weather web wedding weed week weekend weight welcome well west wet whale wheat wheel
    whisky white wide wife wild wind window wine wing winner winter wire wisdom wise witch wolf woman wonder wood
    wool word work worker world worm worry wrist writer yard year yellow yoga young youth zero zone zoo
    tiramisu lasagna risotto paella tapas ramen taco tacos burrito nachos guacamole hummus falafel kebab croissant
    baguette spaghetti penne ravioli gnocchi pesto mozzarella parmesan cheddar brie feta mascarpone espresso
    cappuccino latte mocha matcha smoothie brownie cheesecake macaron mochi churros quesadilla empanada gazpacho
    sangria prosecco champagne tequila vodka whiskey gin rum coke cooker yogurt yoghurt oat bran banana
    strawberry blackberry raspberry cranberry avocado shrimp oyster lobster tuna romaine lettuce spinach kale
    quinoa granola cereal syrup vinegar tofu curry poke bagel muffin pancake waffle donut cupcake tbsp tsp oz
    serum pillowcase hairstyle shampoo lotion makeup lipstick mascara nail polish
    accept achieve admire advise afford agree aim allow amaze announce appear apply appreciate arrive ask attend
    avoid bathe become begin believe belong bend bite blend boil borrow bother bounce breathe bring brush burn
    calculate cancel carry celebrate cheer chew choose clap climb collect combine comfort compare complain
    complete confirm consider contain continue cooking cost count crawl create cry cuddle dare decide defend
    deliver depend describe deserve destroy develop die dig discover discuss divide dream drop earn eat educate
    enjoy enter escape explain explore face fail feed feel fetch fill find finish fit fix float fold follow forget
    forgive freeze gather give glow grab greet grow guess hang happen hear hide hope hug hurry hurt imagine improve
    include influence inform inspire install invite join keep kneel knit knock know lay lean learn leave lend let
    lie like listen look lose manage marry matter measure meet melt miss mix mourn notice obey offer organize
    overcome own pack paint pay perform pick pinch plant pour pray prefer prepare pretend prevent promise protect
    provide pull push quit reach read realize receive recommend refresh relate release remain remember remind
    remove repair repeat reply rescue return reveal review ride ring rise roar rub sail save say scream search
    seem sell send serve settle sew shake share shave shine shout shrink sigh sing sit skip sleep smash sneeze
    solve speak spend spill spin split spoil spread squeeze stay steal stir stretch succeed suggest supply suppose
    survive swallow sweep teach tell thank think throw tidy trim trust try understand unite unlock use vanish
    wander want warn wash waste wear weep whisper win wish worry wrap write yell
    absent accurate actual afraid alive amazing analytic angry anxious authentic available aware awful basic
    bitter bored brief broad busy careful certain cheerful chilly clever cloudy comfortable complete correct cosy
    cozy crisp curly cruel daily dangerous dear deep delicate different difficult dizzy eager easy elegant equal
    exact excellent excited expensive extreme fair faithful familiar fantastic favourite favorite fierce fine firm
    fluffy foreign formal fragile frequent friendly frozen general generous gentle genuine giant glad global
    gorgeous graceful grateful greasy guilty handsome healthy helpful honest hopeful huge humble hungry hydrated
    ideal ill important impossible incredible independent instant intense interesting jealous joyful kind large
    legal light likely lively lonely loose lovely loyal magnificent mature mean messy mighty modest moist multi
    narrow nasty natural naughty neat necessary negative nervous noisy numerous obvious odd official okay organic
    original outstanding overnight painful patient peaceful perfect personal pleasant plenty polite popular
    positive possible powerful precious pregnant pretty previous prime proper proud quick rainy rapid ready
    recent regular relaxed relevant reliable responsible rough rude sacred salty satisfied scary secure selfish
    sensitive serious severe shiny shy sick silly similar sleepy smooth sore sorry sour spicy splendid stable
    steady sticky stiff strict stupid successful sudden suitable sunny superb sure sweaty tall tasty tender
    terrible thick thin thirsty tidy tight tired tough tropical typical ugly unique unusual upset useful usual
    vague valuable variable various vast vivid warm weekly weird whole wicked wild wise wonderful worth wrong
    also anytime apparently maybe perhaps regularly heist rider modernism pilates
    """
) - _words("angel art bill chase cliff crystal mark pearl rich river sky tiger mile")


def common_en(word: str) -> bool:
    """Whether a folded word is a common English word, or one inflected ("Springs", "Lilies", "Illustrated")."""
    stems = [word]
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    elif word.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        stems.append(word[:-2])
    elif word.endswith("s") and not word.endswith("ss"):
        stems.append(word[:-1])
    if len(word) >= 6 and word.endswith("ed"):
        stems += [word[:-2], word[:-1]]
    if len(word) >= 6 and word.endswith("ing"):
        stems += [word[:-3], word[:-3] + "e", word[:-4]]
    if len(word) >= 6 and word.endswith("ly"):
        stems.append(word[:-2])
    return any(stem in COMMON_EN or stem in SUBJECTS or stem in DEMONYMS for stem in stems)
