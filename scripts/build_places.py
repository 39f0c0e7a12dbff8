"""Write `spacy_deid/resources/patterns/places.json`: phrase-list rules for places of closed classes.

    pip install "babel>=2.12"   # only to rebuild the file; the package does not need it
    python scripts/build_places.py [--output spacy_deid/resources/patterns/places.json]
                                   [--closed-output spacy_deid/resources/closed_classes.json]

WHY: a NER learns names from context, and a country, world region or city it never saw in training
(`斯里蘭卡`, `Mongolia`) is a guess, while the list of countries is finite and public. The names come
from the Unicode CLDR (through Babel): territory names in Traditional Chinese (Taiwan) and English
(COUNTRY), the continents and subregions (REGION), the exemplar cities of the time-zone database
(CITY), and nationalities written `<country>籍` / `<country>人` (NATIONALITY). To those this script
adds, by hand, facts CLDR does not hold: Taiwan's municipalities, counties and county-level cities in
both 台/臺 spellings and in English, the short forms charts use (`韓國`, `Korea`, `USA`), and the
first-level divisions that Taiwan's notes name most (STATE): the US states, China's provinces and
autonomous regions, Japan's prefectures, Canada's provinces and Australia's states, in Chinese with
their suffix (`加州`, `廣東省`, `沖繩縣`) and in English.

A string that two lists claim (`新加坡` is a country and a city) is left out of both: the NER decides
such names by context. English names that are also personal names (`Chad`, `Jordan`, `Georgia`,
`Regina`) or common words (`Turkey`, `Jersey`) are left out too: rules cannot tell them apart.
Nothing here comes from an evaluation corpus.
"""
import argparse
import json
from pathlib import Path
from typing import Dict, Iterable, List, Set

import babel
from babel import Locale

# The Babel release places.json was written with (its CLDR data decides the lists; the tests compare the
# file with this script's output under the same release).
BABEL_VERSION = "2.18.0"
OUTPUT = Path(__file__).resolve().parent.parent / "spacy_deid" / "resources" / "patterns" / "places.json"
CLOSED_OUTPUT = OUTPUT.parent.parent / "closed_classes.json"

# Taiwan's special municipalities, counties and county-level cities (facts), with the short forms of
# everyday writing; both 台 and 臺 are in use.
TAIWAN_DIVISIONS_ZH = """
台北市 台北 新北市 新北 桃園市 桃園 台中市 台中 台南市 台南 高雄市 高雄 基隆市 基隆 新竹市 新竹縣 新竹
苗栗縣 苗栗 彰化縣 彰化 南投縣 南投 雲林縣 雲林 嘉義市 嘉義縣 嘉義 屏東縣 屏東 宜蘭縣 宜蘭 花蓮縣 花蓮
台東縣 台東 澎湖縣 澎湖 金門縣 金門 連江縣 馬祖
""".split()
TAIWAN_DIVISIONS_EN = """
Taipei|Taipei City|New Taipei|New Taipei City|Taoyuan|Taoyuan City|Taichung|Taichung City|Tainan|Tainan City|
Kaohsiung|Kaohsiung City|Keelung|Keelung City|Hsinchu|Hsinchu City|Hsinchu County|Miaoli|Miaoli County|
Changhua|Changhua County|Nantou|Nantou County|Yunlin|Yunlin County|Chiayi|Chiayi City|Chiayi County|
Pingtung|Pingtung County|Yilan|Yilan County|Hualien|Hualien County|Taitung|Taitung County|Penghu|
Penghu County|Kinmen|Kinmen County|Lienchiang County|Matsu
""".replace("\n", "").split("|")
# First-level divisions (facts). Chinese names keep their suffix (州 省 縣 府 都 道 自治區): without
# it a province is often a word or a cuisine (`四川`, `湖南`); the four short US forms are the usual
# chart spellings. English names pass the personal-name and word filters below (`Washington`,
# `Georgia`, `Virginia`, `Victoria` and `New York` are left to the NER).
STATES_ZH = """
阿拉巴馬州 阿拉斯加州 亞利桑那州 阿肯色州 加利福尼亞州 加州 科羅拉多州 康乃狄克州 德拉瓦州 佛羅里達州 喬治亞州
夏威夷州 愛達荷州 伊利諾州 印第安納州 愛荷華州 堪薩斯州 肯塔基州 路易斯安那州 緬因州 馬里蘭州 麻薩諸塞州 麻州
密西根州 明尼蘇達州 密西西比州 密蘇里州 蒙大拿州 內布拉斯加州 內華達州 新罕布夏州 紐澤西州 新墨西哥州 紐約州
北卡羅來納州 北達科他州 俄亥俄州 奧克拉荷馬州 俄勒岡州 賓夕法尼亞州 賓州 羅德島州 南卡羅來納州 南達科他州
田納西州 德克薩斯州 德州 猶他州 佛蒙特州 維吉尼亞州 華盛頓州 西維吉尼亞州 威斯康辛州 懷俄明州
河北省 山西省 遼寧省 吉林省 黑龍江省 江蘇省 浙江省 安徽省 福建省 江西省 山東省 河南省 湖北省 湖南省 廣東省
海南省 四川省 貴州省 雲南省 陝西省 甘肅省 青海省 內蒙古自治區 廣西壯族自治區 西藏自治區 寧夏回族自治區
新疆維吾爾自治區
北海道 青森縣 岩手縣 宮城縣 秋田縣 山形縣 福島縣 茨城縣 栃木縣 群馬縣 埼玉縣 千葉縣 東京都 神奈川縣 新潟縣
富山縣 石川縣 福井縣 山梨縣 長野縣 岐阜縣 靜岡縣 愛知縣 三重縣 滋賀縣 京都府 大阪府 兵庫縣 奈良縣 和歌山縣
鳥取縣 島根縣 岡山縣 廣島縣 山口縣 德島縣 香川縣 愛媛縣 高知縣 福岡縣 佐賀縣 長崎縣 熊本縣 大分縣 宮崎縣
鹿兒島縣 沖繩縣
安大略省 魁北克省 卑詩省 亞伯達省 曼尼托巴省 薩斯喀徹溫省 新斯科細亞省 新布倫瑞克省 愛德華王子島省
新南威爾斯州 昆士蘭州 維多利亞州 南澳州 西澳州 塔斯馬尼亞州
""".split()
STATES_EN = """
Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|
Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|
Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|
North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|
Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|
Hebei|Shanxi|Liaoning|Heilongjiang|Jiangsu|Zhejiang|Anhui|Fujian|Jiangxi|Shandong|Henan|Hubei|Hunan|
Guangdong|Hainan|Sichuan|Guizhou|Yunnan|Shaanxi|Gansu|Qinghai|Inner Mongolia|Guangxi|Tibet|Ningxia|
Xinjiang|Hokkaido|Okinawa Prefecture|Osaka Prefecture|Kyoto Prefecture|Kanagawa Prefecture|
Fukuoka Prefecture|Aichi Prefecture|Hiroshima Prefecture|Chiba Prefecture|Saitama Prefecture|
Hyogo Prefecture|Shizuoka Prefecture|Nagano Prefecture|Ontario|Quebec|British Columbia|Alberta|Manitoba|
Saskatchewan|Nova Scotia|New Brunswick|Newfoundland and Labrador|Prince Edward Island|New South Wales|
Queensland|South Australia|Western Australia|Tasmania|Victoria
""".replace("\n", "").split("|")
# Short and colloquial country names that CLDR's standard names do not cover.
COUNTRY_SHORT_ZH = ["韓國", "中華民國", "中國大陸", "阿聯"]
# Two-character country names that are also words or transliterated personal names (`查德` Chad,
# `馬利` in 馬利亞): left to the NER.
COUNTRY_WORDS_ZH = {"查德", "馬利", "多哥", "東加", "根息", "曼島", "尼日"}
COUNTRY_SHORT_EN = ["Korea", "USA", "U.S.A.", "UK", "Burma", "Czech Republic", "Republic of China"]
# English names that are also everyday words or names (capitalised at the start of a sentence), small
# places the time-zone database names that read as words (`Center`, `Knox`), and `New York` (city or state).
ENGLISH_WORDS = {"Turkey", "Jersey", "Guernsey", "Chad", "Man", "Niger", "Guinea", "Chile", "Panama",
                 "Reunion", "Martinique", "Georgia", "Jordan", "Israel", "India", "China", "Kenya",
                 "Trinidad", "Dominica", "Grenada", "Victoria", "Regina", "Darwin", "Hamilton", "Kingston",
                 "Nassau", "Sydney", "Adelaide", "Phoenix", "Denver", "Dawson", "Eucla",
                 "Hobart", "Perth", "Lima", "Santiago", "Troll", "Casey", "Davis", "Mawson", "Palmer",
                 "Rothera", "Vostok", "Macquarie", "Creston", "Marengo", "Vevay", "Winamac", "Monticello",
                 "Tell City", "Petersburg", "Vincennes", "Knox", "Center", "Beulah", "New Salem", "Nome",
                 "Sitka", "Metlakatla", "Yakutat", "Menominee", "New York", "Stanley", "Lindeman", "Freetown",
                 "St. Louis", "Norfolk", "Grand Turk", "Glace Bay", "Edmonton", "Moncton", "Cambridge Bay",
                 "Rankin Inlet", "Swift Current", "Whitehorse", "Fort Nelson", "Dawson Creek", "Broken Hill",
                 "St. John’s", "Adak", "Hebron", "Busingen", "Maseru", "Port of Spain", "Cayenne", "Oral",
                 "Resolute", "Midway", "Canary", "Wallis", "Samara", "Chita", "Aden", "Sofia", "Mahe",
                 "Chatham", "Juba", "Thule", "Vienna"}
# Closed classes for the NER's decoding (`spacy_deid/closed_ner.py`): every name a country or a
# first-level division may be written as, before the filters above (a personal name or a word is still
# a country's name when the NER reads it as one). More forms than the rules' lists only let the NER
# choose the label; they never add a span. Facts, from general knowledge.
CLOSED_COUNTRY_EXTRA = ["台灣", "臺灣", "大陸", "中國大陸", "內地", "香港", "澳門", "Mainland China", "Hong Kong",
                        "Macau", "Macao", "Myanmar", "Burma", "Turkey", "Türkiye", "US", "U.S.", "USA", "U.S.A.",
                        "America", "UK", "U.K.", "Britain", "Great Britain", "England", "Scotland", "Wales",
                        "South Korea", "North Korea", "ROC", "R.O.C.", "PRC", "P.R.C.", "Taiwan, ROC",
                        "英格蘭", "蘇格蘭", "威爾斯", "大韓民國", "中華人民共和國"]
JAPAN_PREFECTURES_EN = """
Hokkaido Aomori Iwate Miyagi Akita Yamagata Fukushima Ibaraki Tochigi Gunma Saitama Chiba Tokyo Kanagawa
Niigata Toyama Ishikawa Fukui Yamanashi Nagano Gifu Shizuoka Aichi Mie Shiga Kyoto Osaka Hyogo Nara
Wakayama Tottori Shimane Okayama Hiroshima Yamaguchi Tokushima Kagawa Ehime Kochi Fukuoka Saga Nagasaki
Kumamoto Oita Miyazaki Kagoshima Okinawa
""".split()
US_STATE_CODES = """
AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK
OR PA RI SC SD TN TX UT VT VA WA WV WI WY
""".split()
CLOSED_STATE_EXTRA = ["Jilin", "Tokyo Metropolis", "廣西", "內蒙古", "西藏", "寧夏", "新疆"]
# A Chinese division is also written without its suffix (`沖繩`, `廣東`, `緬因`).
STATE_SUFFIXES_ZH = ("自治區", "省", "縣", "府", "都", "州")


def _countries(locale: Locale) -> Set[str]:
    """CLDR's territory names in `locale` that are countries (letter codes, no groupings)."""
    return {v for k, v in locale.territories.items() if k.isalpha() and k not in NOT_COUNTRIES}


def _closed_states() -> Set[str]:
    names = set(STATES_ZH) | set(STATES_EN) | set(CLOSED_STATE_EXTRA) | set(US_STATE_CODES)
    for name in STATES_ZH:
        for suffix in STATE_SUFFIXES_ZH:
            if name.endswith(suffix) and len(name) - len(suffix) >= 2:
                names.add(name[: -len(suffix)])
                break
    for name in JAPAN_PREFECTURES_EN:
        names.update((name, f"{name} Prefecture"))
    names.update(n[: -len(" Prefecture")] for n in STATES_EN if n.endswith(" Prefecture"))
    return names


def _closed_countries(countries_zh: Set[str], countries_en: Set[str]) -> Set[str]:
    names = countries_zh | countries_en | set(COUNTRY_SHORT_ZH) | set(COUNTRY_SHORT_EN) | set(CLOSED_COUNTRY_EXTRA)
    for name in list(names):  # `Myanmar (Burma)`, `剛果（金夏沙）`: the name before the brackets too
        for bracket in (" (", "（"):
            if bracket in name:
                names.add(name.split(bracket, 1)[0])
    return names


# CLDR territory codes that are groupings, not countries (EU, United Nations, pseudo-locales).
NOT_COUNTRIES = {"EU", "EZ", "UN", "QO", "XA", "XB", "ZZ", "AQ"}
# A Chinese name this short collides with words (`梅里`); two-character cities are kept only when
# they are well known enough to be written in charts (the Taiwan divisions above are always kept).
MIN_ZH_CITY = 3
WELL_KNOWN_ZH_CITIES = {"東京", "大阪", "首爾", "上海", "北京", "曼谷", "倫敦", "巴黎", "柏林", "紐約", "雪梨",
                        "馬德里", "羅馬", "莫斯科", "開羅", "杜拜", "溫哥華", "多倫多", "芝加哥", "洛杉磯", "墨爾本",
                        "雅加達", "馬尼拉", "吉隆坡", "河內", "仰光", "金邊", "澳門", "香港"}


def _names(lexicon: str) -> Set[str]:
    """Personal names of the package's lexicons: an English place that is also a name is dropped."""
    path = Path(__file__).resolve().parent.parent / "spacy_deid" / "lexicons" / "data" / f"{lexicon}.json"
    entries = json.loads(path.read_text(encoding="utf8"))["entries"]
    out = set()
    for entry in entries:
        for value in entry.values():
            if isinstance(value, str) and value.isascii():
                out.add(value.strip().title())
    return out


def _with_upper(names: Iterable[str]) -> List[str]:
    """English names as written and in capitals (notes written in capitals)."""
    out = set()
    for name in names:
        out.add(name)
        out.add(name.upper())
    return sorted(out)


def build() -> Dict[str, object]:
    zh = Locale.parse("zh_Hant_TW")
    en = Locale.parse("en")
    personal = _names("given_names_en") | _names("surnames_en")
    countries_zh, countries_en = _countries(zh), _countries(en)
    countries_zh = (countries_zh | set(COUNTRY_SHORT_ZH)) - COUNTRY_WORDS_ZH
    countries_en |= set(COUNTRY_SHORT_EN)
    regions_zh = {v for k, v in zh.territories.items() if k.isdigit() and k != "001"}
    regions_en = {v for k, v in en.territories.items() if k.isdigit() and k != "001"}
    # Time-zone cities as (Chinese, English) pairs: CLDR writes an English exemplar city only where it
    # differs from the zone id (`Asia/Ho_Chi_Minh`), so the id gives the others (`Asia/Tokyo`).
    pairs = []
    for zone, names in zh.time_zones.items():
        if not names.get("city") or zone == "Etc/Unknown":
            continue
        english = en.time_zones.get(zone, {}).get("city") or zone.rsplit("/", 1)[-1].replace("_", " ")
        if english not in personal and english not in ENGLISH_WORDS:
            pairs.append((names["city"], english))
    cities_zh = {c for c, _ in pairs if len(c) >= MIN_ZH_CITY or c in WELL_KNOWN_ZH_CITIES}
    cities_zh |= set(TAIWAN_DIVISIONS_ZH)
    cities_en = {e for _, e in pairs} | set(TAIWAN_DIVISIONS_EN)

    # A name two lists claim is left to the NER; English names that are personal names or words too.
    states_zh, states_en = set(STATES_ZH), set(STATES_EN)
    lists = {"COUNTRY": [countries_zh, countries_en], "REGION": [regions_zh, regions_en],
             "CITY": [cities_zh, cities_en], "STATE": [states_zh, states_en]}
    claims: Dict[str, Set[str]] = {}
    for label, parts in lists.items():
        for part in parts:
            for name in part:
                claims.setdefault(name, set()).add(label)
    shared = {name for name, labels in claims.items() if len(labels) > 1}
    for parts in lists.values():
        for part in parts:
            part -= shared
    for part in (countries_en, regions_en, states_en):  # cities were filtered as pairs above
        part -= {n for n in part if n in personal or n in ENGLISH_WORDS}
    nationalities_zh = {c + suffix for c in countries_zh if "（" not in c and len(c) <= 5
                        for suffix in ("籍", "人")}

    def rule(rule_id: str, label: str, phrases: Iterable[str], description: str) -> Dict[str, object]:
        return {"id": rule_id, "label": label, "phrases": sorted(phrases), "validator": "place_name",
                "description": description}

    return {
        "description": "Places of closed classes, from the Unicode CLDR (territories, regions, time-zone "
                       "cities; zh_Hant_TW and en), Taiwan's administrative divisions and the first-level "
                       "divisions of six countries; written by "
                       "scripts/build_places.py, do not edit by hand.",
        "patterns": [
            rule("place_country_zh", "COUNTRY", countries_zh, "Country and territory names (CLDR zh_Hant_TW) and chart short forms (韓國)."),
            rule("place_country_en", "COUNTRY", _with_upper(countries_en), "Country and territory names (CLDR en), without those that are personal names or words (Chad, Turkey)."),
            rule("place_nationality_zh", "NATIONALITY", nationalities_zh, "Nationality as <country>籍 or <country>人 (美國籍, 日本人)."),
            rule("place_region_zh", "REGION", regions_zh, "Continents and world subregions (CLDR zh_Hant_TW: 東南亞, 拉丁美洲)."),
            rule("place_region_en", "REGION", _with_upper(regions_en), "Continents and world subregions (CLDR en: Southeast Asia)."),
            rule("place_city_zh", "CITY", cities_zh, "Taiwan's municipalities, counties and cities (台北市, 嘉義縣), and world cities of the time-zone database (CLDR zh_Hant_TW; two-character ones only when well known)."),
            rule("place_state_zh", "STATE", states_zh, "First-level divisions with their suffix: US states (加州, 紐約州), China's provinces and autonomous regions (廣東省), Japan's prefectures (沖繩縣), Canada's provinces, Australia's states."),
            rule("place_state_en", "STATE", _with_upper(states_en), "US states, China's provinces, Japan's prefectures, Canada's provinces and Australia's states in English, without those that are personal names or words (Washington, Georgia, Virginia)."),
            rule("place_city_en", "CITY", _with_upper(cities_en), "Taiwan's municipalities, counties and cities (Kaohsiung, Hualien County), and world cities of the time-zone database (CLDR en), without those that are personal names or words."),
        ],
    }


def build_closed() -> Dict[str, object]:
    """The names the NER's closed labels may take (`closed_classes.json`)."""
    zh = Locale.parse("zh_Hant_TW")
    en = Locale.parse("en")
    countries_zh, countries_en = _countries(zh), _countries(en)
    return {
        "description": "Every name a closed-class label may be written as (CLDR territories zh_Hant_TW and en, "
                       "short forms, first-level divisions with and without their suffix); the NER may give "
                       "these labels to no other string. Written by scripts/build_places.py, do not edit by hand.",
        "labels": {"COUNTRY": sorted(_closed_countries(countries_zh, countries_en)),
                   "STATE": sorted(_closed_states())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--closed-output", type=Path, default=CLOSED_OUTPUT)
    args = parser.parse_args()
    if babel.__version__ != BABEL_VERSION:
        print(f"note: Babel {babel.__version__}, not {BABEL_VERSION}: update BABEL_VERSION if you keep the output")
    data = build()
    args.output.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf8")
    counts = ", ".join(f"{r['id']} {len(r['phrases'])}" for r in data["patterns"])
    print(f"wrote {args.output}: {counts}")
    closed = build_closed()
    args.closed_output.write_text(json.dumps(closed, ensure_ascii=False, indent=1) + "\n", encoding="utf8")
    print(f"wrote {args.closed_output}: " + ", ".join(f"{k} {len(v)}" for k, v in closed["labels"].items()))


if __name__ == "__main__":
    main()
