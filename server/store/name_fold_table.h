/* name_fold_table.h: written by name_fold_table.py (Unicode 14.0.0); do not edit. */
/* clang-format off */
static const struct fold_row fold_rows[] = {
	{ 0x00C0, 0, "a" }, /* latin capital letter a with grave */
	{ 0x00C1, 0, "a" }, /* latin capital letter a with acute */
	{ 0x00C2, 0, "a" }, /* latin capital letter a with circumflex */
	{ 0x00C3, 0, "a" }, /* latin capital letter a with tilde */
	{ 0x00C4, 0, "a" }, /* latin capital letter a with diaeresis */
	{ 0x00C5, 0, "a" }, /* latin capital letter a with ring above */
	{ 0x00C6, 0, "ae" }, /* latin capital letter ae */
	{ 0x00C7, 0, "c" }, /* latin capital letter c with cedilla */
	{ 0x00C8, 0, "e" }, /* latin capital letter e with grave */
	{ 0x00C9, 0, "e" }, /* latin capital letter e with acute */
	{ 0x00CA, 0, "e" }, /* latin capital letter e with circumflex */
	{ 0x00CB, 0, "e" }, /* latin capital letter e with diaeresis */
	{ 0x00CC, 0, "i" }, /* latin capital letter i with grave */
	{ 0x00CD, 0, "i" }, /* latin capital letter i with acute */
	{ 0x00CE, 0, "i" }, /* latin capital letter i with circumflex */
	{ 0x00CF, 0, "i" }, /* latin capital letter i with diaeresis */
	{ 0x00D0, 0x00F0, "" }, /* latin capital letter eth */
	{ 0x00D1, 0, "n" }, /* latin capital letter n with tilde */
	{ 0x00D2, 0, "o" }, /* latin capital letter o with grave */
	{ 0x00D3, 0, "o" }, /* latin capital letter o with acute */
	{ 0x00D4, 0, "o" }, /* latin capital letter o with circumflex */
	{ 0x00D5, 0, "o" }, /* latin capital letter o with tilde */
	{ 0x00D6, 0, "o" }, /* latin capital letter o with diaeresis */
	{ 0x00D8, 0, "o" }, /* latin capital letter o with stroke */
	{ 0x00D9, 0, "u" }, /* latin capital letter u with grave */
	{ 0x00DA, 0, "u" }, /* latin capital letter u with acute */
	{ 0x00DB, 0, "u" }, /* latin capital letter u with circumflex */
	{ 0x00DC, 0, "u" }, /* latin capital letter u with diaeresis */
	{ 0x00DD, 0, "y" }, /* latin capital letter y with acute */
	{ 0x00DE, 0x00FE, "" }, /* latin capital letter thorn */
	{ 0x00DF, 0, "ss" }, /* latin small letter sharp s */
	{ 0x00E0, 0, "a" }, /* latin small letter a with grave */
	{ 0x00E1, 0, "a" }, /* latin small letter a with acute */
	{ 0x00E2, 0, "a" }, /* latin small letter a with circumflex */
	{ 0x00E3, 0, "a" }, /* latin small letter a with tilde */
	{ 0x00E4, 0, "a" }, /* latin small letter a with diaeresis */
	{ 0x00E5, 0, "a" }, /* latin small letter a with ring above */
	{ 0x00E6, 0, "ae" }, /* latin small letter ae */
	{ 0x00E7, 0, "c" }, /* latin small letter c with cedilla */
	{ 0x00E8, 0, "e" }, /* latin small letter e with grave */
	{ 0x00E9, 0, "e" }, /* latin small letter e with acute */
	{ 0x00EA, 0, "e" }, /* latin small letter e with circumflex */
	{ 0x00EB, 0, "e" }, /* latin small letter e with diaeresis */
	{ 0x00EC, 0, "i" }, /* latin small letter i with grave */
	{ 0x00ED, 0, "i" }, /* latin small letter i with acute */
	{ 0x00EE, 0, "i" }, /* latin small letter i with circumflex */
	{ 0x00EF, 0, "i" }, /* latin small letter i with diaeresis */
	{ 0x00F1, 0, "n" }, /* latin small letter n with tilde */
	{ 0x00F2, 0, "o" }, /* latin small letter o with grave */
	{ 0x00F3, 0, "o" }, /* latin small letter o with acute */
	{ 0x00F4, 0, "o" }, /* latin small letter o with circumflex */
	{ 0x00F5, 0, "o" }, /* latin small letter o with tilde */
	{ 0x00F6, 0, "o" }, /* latin small letter o with diaeresis */
	{ 0x00F8, 0, "o" }, /* latin small letter o with stroke */
	{ 0x00F9, 0, "u" }, /* latin small letter u with grave */
	{ 0x00FA, 0, "u" }, /* latin small letter u with acute */
	{ 0x00FB, 0, "u" }, /* latin small letter u with circumflex */
	{ 0x00FC, 0, "u" }, /* latin small letter u with diaeresis */
	{ 0x00FD, 0, "y" }, /* latin small letter y with acute */
	{ 0x00FF, 0, "y" }, /* latin small letter y with diaeresis */
	{ 0x0100, 0, "a" }, /* latin capital letter a with macron */
	{ 0x0101, 0, "a" }, /* latin small letter a with macron */
	{ 0x0102, 0, "a" }, /* latin capital letter a with breve */
	{ 0x0103, 0, "a" }, /* latin small letter a with breve */
	{ 0x0104, 0, "a" }, /* latin capital letter a with ogonek */
	{ 0x0105, 0, "a" }, /* latin small letter a with ogonek */
	{ 0x0106, 0, "c" }, /* latin capital letter c with acute */
	{ 0x0107, 0, "c" }, /* latin small letter c with acute */
	{ 0x0108, 0, "c" }, /* latin capital letter c with circumflex */
	{ 0x0109, 0, "c" }, /* latin small letter c with circumflex */
	{ 0x010A, 0, "c" }, /* latin capital letter c with dot above */
	{ 0x010B, 0, "c" }, /* latin small letter c with dot above */
	{ 0x010C, 0, "c" }, /* latin capital letter c with caron */
	{ 0x010D, 0, "c" }, /* latin small letter c with caron */
	{ 0x010E, 0, "d" }, /* latin capital letter d with caron */
	{ 0x010F, 0, "d" }, /* latin small letter d with caron */
	{ 0x0110, 0, "d" }, /* latin capital letter d with stroke */
	{ 0x0111, 0, "d" }, /* latin small letter d with stroke */
	{ 0x0112, 0, "e" }, /* latin capital letter e with macron */
	{ 0x0113, 0, "e" }, /* latin small letter e with macron */
	{ 0x0114, 0, "e" }, /* latin capital letter e with breve */
	{ 0x0115, 0, "e" }, /* latin small letter e with breve */
	{ 0x0116, 0, "e" }, /* latin capital letter e with dot above */
	{ 0x0117, 0, "e" }, /* latin small letter e with dot above */
	{ 0x0118, 0, "e" }, /* latin capital letter e with ogonek */
	{ 0x0119, 0, "e" }, /* latin small letter e with ogonek */
	{ 0x011A, 0, "e" }, /* latin capital letter e with caron */
	{ 0x011B, 0, "e" }, /* latin small letter e with caron */
	{ 0x011C, 0, "g" }, /* latin capital letter g with circumflex */
	{ 0x011D, 0, "g" }, /* latin small letter g with circumflex */
	{ 0x011E, 0, "g" }, /* latin capital letter g with breve */
	{ 0x011F, 0, "g" }, /* latin small letter g with breve */
	{ 0x0120, 0, "g" }, /* latin capital letter g with dot above */
	{ 0x0121, 0, "g" }, /* latin small letter g with dot above */
	{ 0x0122, 0, "g" }, /* latin capital letter g with cedilla */
	{ 0x0123, 0, "g" }, /* latin small letter g with cedilla */
	{ 0x0124, 0, "h" }, /* latin capital letter h with circumflex */
	{ 0x0125, 0, "h" }, /* latin small letter h with circumflex */
	{ 0x0126, 0, "h" }, /* latin capital letter h with stroke */
	{ 0x0127, 0, "h" }, /* latin small letter h with stroke */
	{ 0x0128, 0, "i" }, /* latin capital letter i with tilde */
	{ 0x0129, 0, "i" }, /* latin small letter i with tilde */
	{ 0x012A, 0, "i" }, /* latin capital letter i with macron */
	{ 0x012B, 0, "i" }, /* latin small letter i with macron */
	{ 0x012C, 0, "i" }, /* latin capital letter i with breve */
	{ 0x012D, 0, "i" }, /* latin small letter i with breve */
	{ 0x012E, 0, "i" }, /* latin capital letter i with ogonek */
	{ 0x012F, 0, "i" }, /* latin small letter i with ogonek */
	{ 0x0130, 0, "i" }, /* latin capital letter i with dot above */
	{ 0x0131, 0, "i" }, /* latin small letter dotless i */
	{ 0x0132, 0, "ij" }, /* latin capital ligature ij */
	{ 0x0133, 0, "ij" }, /* latin small ligature ij */
	{ 0x0134, 0, "j" }, /* latin capital letter j with circumflex */
	{ 0x0135, 0, "j" }, /* latin small letter j with circumflex */
	{ 0x0136, 0, "k" }, /* latin capital letter k with cedilla */
	{ 0x0137, 0, "k" }, /* latin small letter k with cedilla */
	{ 0x0139, 0, "l" }, /* latin capital letter l with acute */
	{ 0x013A, 0, "l" }, /* latin small letter l with acute */
	{ 0x013B, 0, "l" }, /* latin capital letter l with cedilla */
	{ 0x013C, 0, "l" }, /* latin small letter l with cedilla */
	{ 0x013D, 0, "l" }, /* latin capital letter l with caron */
	{ 0x013E, 0, "l" }, /* latin small letter l with caron */
	{ 0x013F, 0, "l" }, /* latin capital letter l with middle dot */
	{ 0x0140, 0, "l" }, /* latin small letter l with middle dot */
	{ 0x0141, 0, "l" }, /* latin capital letter l with stroke */
	{ 0x0142, 0, "l" }, /* latin small letter l with stroke */
	{ 0x0143, 0, "n" }, /* latin capital letter n with acute */
	{ 0x0144, 0, "n" }, /* latin small letter n with acute */
	{ 0x0145, 0, "n" }, /* latin capital letter n with cedilla */
	{ 0x0146, 0, "n" }, /* latin small letter n with cedilla */
	{ 0x0147, 0, "n" }, /* latin capital letter n with caron */
	{ 0x0148, 0, "n" }, /* latin small letter n with caron */
	{ 0x014A, 0x014B, "" }, /* latin capital letter eng */
	{ 0x014C, 0, "o" }, /* latin capital letter o with macron */
	{ 0x014D, 0, "o" }, /* latin small letter o with macron */
	{ 0x014E, 0, "o" }, /* latin capital letter o with breve */
	{ 0x014F, 0, "o" }, /* latin small letter o with breve */
	{ 0x0150, 0, "o" }, /* latin capital letter o with double acute */
	{ 0x0151, 0, "o" }, /* latin small letter o with double acute */
	{ 0x0152, 0, "oe" }, /* latin capital ligature oe */
	{ 0x0153, 0, "oe" }, /* latin small ligature oe */
	{ 0x0154, 0, "r" }, /* latin capital letter r with acute */
	{ 0x0155, 0, "r" }, /* latin small letter r with acute */
	{ 0x0156, 0, "r" }, /* latin capital letter r with cedilla */
	{ 0x0157, 0, "r" }, /* latin small letter r with cedilla */
	{ 0x0158, 0, "r" }, /* latin capital letter r with caron */
	{ 0x0159, 0, "r" }, /* latin small letter r with caron */
	{ 0x015A, 0, "s" }, /* latin capital letter s with acute */
	{ 0x015B, 0, "s" }, /* latin small letter s with acute */
	{ 0x015C, 0, "s" }, /* latin capital letter s with circumflex */
	{ 0x015D, 0, "s" }, /* latin small letter s with circumflex */
	{ 0x015E, 0, "s" }, /* latin capital letter s with cedilla */
	{ 0x015F, 0, "s" }, /* latin small letter s with cedilla */
	{ 0x0160, 0, "s" }, /* latin capital letter s with caron */
	{ 0x0161, 0, "s" }, /* latin small letter s with caron */
	{ 0x0162, 0, "t" }, /* latin capital letter t with cedilla */
	{ 0x0163, 0, "t" }, /* latin small letter t with cedilla */
	{ 0x0164, 0, "t" }, /* latin capital letter t with caron */
	{ 0x0165, 0, "t" }, /* latin small letter t with caron */
	{ 0x0166, 0, "t" }, /* latin capital letter t with stroke */
	{ 0x0167, 0, "t" }, /* latin small letter t with stroke */
	{ 0x0168, 0, "u" }, /* latin capital letter u with tilde */
	{ 0x0169, 0, "u" }, /* latin small letter u with tilde */
	{ 0x016A, 0, "u" }, /* latin capital letter u with macron */
	{ 0x016B, 0, "u" }, /* latin small letter u with macron */
	{ 0x016C, 0, "u" }, /* latin capital letter u with breve */
	{ 0x016D, 0, "u" }, /* latin small letter u with breve */
	{ 0x016E, 0, "u" }, /* latin capital letter u with ring above */
	{ 0x016F, 0, "u" }, /* latin small letter u with ring above */
	{ 0x0170, 0, "u" }, /* latin capital letter u with double acute */
	{ 0x0171, 0, "u" }, /* latin small letter u with double acute */
	{ 0x0172, 0, "u" }, /* latin capital letter u with ogonek */
	{ 0x0173, 0, "u" }, /* latin small letter u with ogonek */
	{ 0x0174, 0, "w" }, /* latin capital letter w with circumflex */
	{ 0x0175, 0, "w" }, /* latin small letter w with circumflex */
	{ 0x0176, 0, "y" }, /* latin capital letter y with circumflex */
	{ 0x0177, 0, "y" }, /* latin small letter y with circumflex */
	{ 0x0178, 0, "y" }, /* latin capital letter y with diaeresis */
	{ 0x0179, 0, "z" }, /* latin capital letter z with acute */
	{ 0x017A, 0, "z" }, /* latin small letter z with acute */
	{ 0x017B, 0, "z" }, /* latin capital letter z with dot above */
	{ 0x017C, 0, "z" }, /* latin small letter z with dot above */
	{ 0x017D, 0, "z" }, /* latin capital letter z with caron */
	{ 0x017E, 0, "z" }, /* latin small letter z with caron */
	{ 0x017F, 0, "s" }, /* latin small letter long s */
	{ 0x0180, 0, "b" }, /* latin small letter b with stroke */
	{ 0x0181, 0x0253, "" }, /* latin capital letter b with hook */
	{ 0x0182, 0x0183, "" }, /* latin capital letter b with topbar */
	{ 0x0184, 0x0185, "" }, /* latin capital letter tone six */
	{ 0x0186, 0x0254, "" }, /* latin capital letter open o */
	{ 0x0187, 0x0188, "" }, /* latin capital letter c with hook */
	{ 0x0189, 0x0256, "" }, /* latin capital letter african d */
	{ 0x018A, 0x0257, "" }, /* latin capital letter d with hook */
	{ 0x018B, 0x018C, "" }, /* latin capital letter d with topbar */
	{ 0x018E, 0x01DD, "" }, /* latin capital letter reversed e */
	{ 0x018F, 0x0259, "" }, /* latin capital letter schwa */
	{ 0x0190, 0x025B, "" }, /* latin capital letter open e */
	{ 0x0191, 0, "f" }, /* latin capital letter f with hook */
	{ 0x0192, 0, "f" }, /* latin small letter f with hook */
	{ 0x0193, 0x0260, "" }, /* latin capital letter g with hook */
	{ 0x0194, 0x0263, "" }, /* latin capital letter gamma */
	{ 0x0196, 0x0269, "" }, /* latin capital letter iota */
	{ 0x0197, 0, "i" }, /* latin capital letter i with stroke */
	{ 0x0198, 0x0199, "" }, /* latin capital letter k with hook */
	{ 0x019C, 0x026F, "" }, /* latin capital letter turned m */
	{ 0x019D, 0x0272, "" }, /* latin capital letter n with left hook */
	{ 0x019F, 0x0275, "" }, /* latin capital letter o with middle tilde */
	{ 0x01A0, 0, "o" }, /* latin capital letter o with horn */
	{ 0x01A1, 0, "o" }, /* latin small letter o with horn */
	{ 0x01A2, 0x01A3, "" }, /* latin capital letter oi */
	{ 0x01A4, 0x01A5, "" }, /* latin capital letter p with hook */
	{ 0x01A6, 0x0280, "" }, /* latin letter yr */
	{ 0x01A7, 0x01A8, "" }, /* latin capital letter tone two */
	{ 0x01A9, 0x0283, "" }, /* latin capital letter esh */
	{ 0x01AC, 0x01AD, "" }, /* latin capital letter t with hook */
	{ 0x01AE, 0x0288, "" }, /* latin capital letter t with retroflex hook */
	{ 0x01AF, 0, "u" }, /* latin capital letter u with horn */
	{ 0x01B0, 0, "u" }, /* latin small letter u with horn */
	{ 0x01B1, 0x028A, "" }, /* latin capital letter upsilon */
	{ 0x01B2, 0x028B, "" }, /* latin capital letter v with hook */
	{ 0x01B3, 0x01B4, "" }, /* latin capital letter y with hook */
	{ 0x01B5, 0, "z" }, /* latin capital letter z with stroke */
	{ 0x01B6, 0, "z" }, /* latin small letter z with stroke */
	{ 0x01B7, 0x0292, "" }, /* latin capital letter ezh */
	{ 0x01B8, 0x01B9, "" }, /* latin capital letter ezh reversed */
	{ 0x01BC, 0x01BD, "" }, /* latin capital letter tone five */
	{ 0x01C4, 0, "dz" }, /* latin capital letter dz with caron */
	{ 0x01C5, 0, "dz" }, /* latin capital letter d with small letter z with caron */
	{ 0x01C6, 0, "dz" }, /* latin small letter dz with caron */
	{ 0x01C7, 0, "lj" }, /* latin capital letter lj */
	{ 0x01C8, 0, "lj" }, /* latin capital letter l with small letter j */
	{ 0x01C9, 0, "lj" }, /* latin small letter lj */
	{ 0x01CA, 0, "nj" }, /* latin capital letter nj */
	{ 0x01CB, 0, "nj" }, /* latin capital letter n with small letter j */
	{ 0x01CC, 0, "nj" }, /* latin small letter nj */
	{ 0x01CD, 0, "a" }, /* latin capital letter a with caron */
	{ 0x01CE, 0, "a" }, /* latin small letter a with caron */
	{ 0x01CF, 0, "i" }, /* latin capital letter i with caron */
	{ 0x01D0, 0, "i" }, /* latin small letter i with caron */
	{ 0x01D1, 0, "o" }, /* latin capital letter o with caron */
	{ 0x01D2, 0, "o" }, /* latin small letter o with caron */
	{ 0x01D3, 0, "u" }, /* latin capital letter u with caron */
	{ 0x01D4, 0, "u" }, /* latin small letter u with caron */
	{ 0x01D5, 0, "u" }, /* latin capital letter u with diaeresis and macron */
	{ 0x01D6, 0, "u" }, /* latin small letter u with diaeresis and macron */
	{ 0x01D7, 0, "u" }, /* latin capital letter u with diaeresis and acute */
	{ 0x01D8, 0, "u" }, /* latin small letter u with diaeresis and acute */
	{ 0x01D9, 0, "u" }, /* latin capital letter u with diaeresis and caron */
	{ 0x01DA, 0, "u" }, /* latin small letter u with diaeresis and caron */
	{ 0x01DB, 0, "u" }, /* latin capital letter u with diaeresis and grave */
	{ 0x01DC, 0, "u" }, /* latin small letter u with diaeresis and grave */
	{ 0x01DE, 0, "a" }, /* latin capital letter a with diaeresis and macron */
	{ 0x01DF, 0, "a" }, /* latin small letter a with diaeresis and macron */
	{ 0x01E0, 0, "a" }, /* latin capital letter a with dot above and macron */
	{ 0x01E1, 0, "a" }, /* latin small letter a with dot above and macron */
	{ 0x01E2, 0, "ae" }, /* latin capital letter ae with macron */
	{ 0x01E3, 0, "ae" }, /* latin small letter ae with macron */
	{ 0x01E4, 0, "g" }, /* latin capital letter g with stroke */
	{ 0x01E5, 0, "g" }, /* latin small letter g with stroke */
	{ 0x01E6, 0, "g" }, /* latin capital letter g with caron */
	{ 0x01E7, 0, "g" }, /* latin small letter g with caron */
	{ 0x01E8, 0, "k" }, /* latin capital letter k with caron */
	{ 0x01E9, 0, "k" }, /* latin small letter k with caron */
	{ 0x01EA, 0, "o" }, /* latin capital letter o with ogonek */
	{ 0x01EB, 0, "o" }, /* latin small letter o with ogonek */
	{ 0x01EC, 0, "o" }, /* latin capital letter o with ogonek and macron */
	{ 0x01ED, 0, "o" }, /* latin small letter o with ogonek and macron */
	{ 0x01EE, 0x0292, "" }, /* latin capital letter ezh with caron */
	{ 0x01EF, 0x0292, "" }, /* latin small letter ezh with caron */
	{ 0x01F0, 0, "j" }, /* latin small letter j with caron */
	{ 0x01F1, 0, "dz" }, /* latin capital letter dz */
	{ 0x01F2, 0, "dz" }, /* latin capital letter d with small letter z */
	{ 0x01F3, 0, "dz" }, /* latin small letter dz */
	{ 0x01F4, 0, "g" }, /* latin capital letter g with acute */
	{ 0x01F5, 0, "g" }, /* latin small letter g with acute */
	{ 0x01F6, 0x0195, "" }, /* latin capital letter hwair */
	{ 0x01F7, 0x01BF, "" }, /* latin capital letter wynn */
	{ 0x01F8, 0, "n" }, /* latin capital letter n with grave */
	{ 0x01F9, 0, "n" }, /* latin small letter n with grave */
	{ 0x01FA, 0, "a" }, /* latin capital letter a with ring above and acute */
	{ 0x01FB, 0, "a" }, /* latin small letter a with ring above and acute */
	{ 0x01FC, 0, "ae" }, /* latin capital letter ae with acute */
	{ 0x01FD, 0, "ae" }, /* latin small letter ae with acute */
	{ 0x01FE, 0, "o" }, /* latin capital letter o with stroke and acute */
	{ 0x01FF, 0, "o" }, /* latin small letter o with stroke and acute */
	{ 0x0200, 0, "a" }, /* latin capital letter a with double grave */
	{ 0x0201, 0, "a" }, /* latin small letter a with double grave */
	{ 0x0202, 0, "a" }, /* latin capital letter a with inverted breve */
	{ 0x0203, 0, "a" }, /* latin small letter a with inverted breve */
	{ 0x0204, 0, "e" }, /* latin capital letter e with double grave */
	{ 0x0205, 0, "e" }, /* latin small letter e with double grave */
	{ 0x0206, 0, "e" }, /* latin capital letter e with inverted breve */
	{ 0x0207, 0, "e" }, /* latin small letter e with inverted breve */
	{ 0x0208, 0, "i" }, /* latin capital letter i with double grave */
	{ 0x0209, 0, "i" }, /* latin small letter i with double grave */
	{ 0x020A, 0, "i" }, /* latin capital letter i with inverted breve */
	{ 0x020B, 0, "i" }, /* latin small letter i with inverted breve */
	{ 0x020C, 0, "o" }, /* latin capital letter o with double grave */
	{ 0x020D, 0, "o" }, /* latin small letter o with double grave */
	{ 0x020E, 0, "o" }, /* latin capital letter o with inverted breve */
	{ 0x020F, 0, "o" }, /* latin small letter o with inverted breve */
	{ 0x0210, 0, "r" }, /* latin capital letter r with double grave */
	{ 0x0211, 0, "r" }, /* latin small letter r with double grave */
	{ 0x0212, 0, "r" }, /* latin capital letter r with inverted breve */
	{ 0x0213, 0, "r" }, /* latin small letter r with inverted breve */
	{ 0x0214, 0, "u" }, /* latin capital letter u with double grave */
	{ 0x0215, 0, "u" }, /* latin small letter u with double grave */
	{ 0x0216, 0, "u" }, /* latin capital letter u with inverted breve */
	{ 0x0217, 0, "u" }, /* latin small letter u with inverted breve */
	{ 0x0218, 0, "s" }, /* latin capital letter s with comma below */
	{ 0x0219, 0, "s" }, /* latin small letter s with comma below */
	{ 0x021A, 0, "t" }, /* latin capital letter t with comma below */
	{ 0x021B, 0, "t" }, /* latin small letter t with comma below */
	{ 0x021C, 0x021D, "" }, /* latin capital letter yogh */
	{ 0x021E, 0, "h" }, /* latin capital letter h with caron */
	{ 0x021F, 0, "h" }, /* latin small letter h with caron */
	{ 0x0220, 0x019E, "" }, /* latin capital letter n with long right leg */
	{ 0x0222, 0x0223, "" }, /* latin capital letter ou */
	{ 0x0224, 0x0225, "" }, /* latin capital letter z with hook */
	{ 0x0226, 0, "a" }, /* latin capital letter a with dot above */
	{ 0x0227, 0, "a" }, /* latin small letter a with dot above */
	{ 0x0228, 0, "e" }, /* latin capital letter e with cedilla */
	{ 0x0229, 0, "e" }, /* latin small letter e with cedilla */
	{ 0x022A, 0, "o" }, /* latin capital letter o with diaeresis and macron */
	{ 0x022B, 0, "o" }, /* latin small letter o with diaeresis and macron */
	{ 0x022C, 0, "o" }, /* latin capital letter o with tilde and macron */
	{ 0x022D, 0, "o" }, /* latin small letter o with tilde and macron */
	{ 0x022E, 0, "o" }, /* latin capital letter o with dot above */
	{ 0x022F, 0, "o" }, /* latin small letter o with dot above */
	{ 0x0230, 0, "o" }, /* latin capital letter o with dot above and macron */
	{ 0x0231, 0, "o" }, /* latin small letter o with dot above and macron */
	{ 0x0232, 0, "y" }, /* latin capital letter y with macron */
	{ 0x0233, 0, "y" }, /* latin small letter y with macron */
	{ 0x023B, 0x023C, "" }, /* latin capital letter c with stroke */
	{ 0x023D, 0x019A, "" }, /* latin capital letter l with bar */
	{ 0x0241, 0x0242, "" }, /* latin capital letter glottal stop */
	{ 0x0243, 0, "b" }, /* latin capital letter b with stroke */
	{ 0x0244, 0x0289, "" }, /* latin capital letter u bar */
	{ 0x0245, 0x028C, "" }, /* latin capital letter turned v */
	{ 0x0246, 0x0247, "" }, /* latin capital letter e with stroke */
	{ 0x0248, 0x0249, "" }, /* latin capital letter j with stroke */
	{ 0x024A, 0x024B, "" }, /* latin capital letter small q with hook tail */
	{ 0x024C, 0x024D, "" }, /* latin capital letter r with stroke */
	{ 0x024E, 0x024F, "" }, /* latin capital letter y with stroke */
	{ 0x0386, 0x03B1, "" }, /* greek capital letter alpha with tonos */
	{ 0x0388, 0x03B5, "" }, /* greek capital letter epsilon with tonos */
	{ 0x0389, 0x03B7, "" }, /* greek capital letter eta with tonos */
	{ 0x038A, 0x03B9, "" }, /* greek capital letter iota with tonos */
	{ 0x038C, 0x03BF, "" }, /* greek capital letter omicron with tonos */
	{ 0x038E, 0x03C5, "" }, /* greek capital letter upsilon with tonos */
	{ 0x038F, 0x03C9, "" }, /* greek capital letter omega with tonos */
	{ 0x0390, 0x03B9, "" }, /* greek small letter iota with dialytika and tonos */
	{ 0x0391, 0x03B1, "" }, /* greek capital letter alpha */
	{ 0x0392, 0x03B2, "" }, /* greek capital letter beta */
	{ 0x0393, 0x03B3, "" }, /* greek capital letter gamma */
	{ 0x0394, 0x03B4, "" }, /* greek capital letter delta */
	{ 0x0395, 0x03B5, "" }, /* greek capital letter epsilon */
	{ 0x0396, 0x03B6, "" }, /* greek capital letter zeta */
	{ 0x0397, 0x03B7, "" }, /* greek capital letter eta */
	{ 0x0398, 0x03B8, "" }, /* greek capital letter theta */
	{ 0x0399, 0x03B9, "" }, /* greek capital letter iota */
	{ 0x039A, 0x03BA, "" }, /* greek capital letter kappa */
	{ 0x039B, 0x03BB, "" }, /* greek capital letter lamda */
	{ 0x039C, 0x03BC, "" }, /* greek capital letter mu */
	{ 0x039D, 0x03BD, "" }, /* greek capital letter nu */
	{ 0x039E, 0x03BE, "" }, /* greek capital letter xi */
	{ 0x039F, 0x03BF, "" }, /* greek capital letter omicron */
	{ 0x03A0, 0x03C0, "" }, /* greek capital letter pi */
	{ 0x03A1, 0x03C1, "" }, /* greek capital letter rho */
	{ 0x03A3, 0x03C3, "" }, /* greek capital letter sigma */
	{ 0x03A4, 0x03C4, "" }, /* greek capital letter tau */
	{ 0x03A5, 0x03C5, "" }, /* greek capital letter upsilon */
	{ 0x03A6, 0x03C6, "" }, /* greek capital letter phi */
	{ 0x03A7, 0x03C7, "" }, /* greek capital letter chi */
	{ 0x03A8, 0x03C8, "" }, /* greek capital letter psi */
	{ 0x03A9, 0x03C9, "" }, /* greek capital letter omega */
	{ 0x03AA, 0x03B9, "" }, /* greek capital letter iota with dialytika */
	{ 0x03AB, 0x03C5, "" }, /* greek capital letter upsilon with dialytika */
	{ 0x03AC, 0x03B1, "" }, /* greek small letter alpha with tonos */
	{ 0x03AD, 0x03B5, "" }, /* greek small letter epsilon with tonos */
	{ 0x03AE, 0x03B7, "" }, /* greek small letter eta with tonos */
	{ 0x03AF, 0x03B9, "" }, /* greek small letter iota with tonos */
	{ 0x03B0, 0x03C5, "" }, /* greek small letter upsilon with dialytika and tonos */
	{ 0x03CA, 0x03B9, "" }, /* greek small letter iota with dialytika */
	{ 0x03CB, 0x03C5, "" }, /* greek small letter upsilon with dialytika */
	{ 0x03CC, 0x03BF, "" }, /* greek small letter omicron with tonos */
	{ 0x03CD, 0x03C5, "" }, /* greek small letter upsilon with tonos */
	{ 0x03CE, 0x03C9, "" }, /* greek small letter omega with tonos */
	{ 0x1E00, 0, "a" }, /* latin capital letter a with ring below */
	{ 0x1E01, 0, "a" }, /* latin small letter a with ring below */
	{ 0x1E02, 0, "b" }, /* latin capital letter b with dot above */
	{ 0x1E03, 0, "b" }, /* latin small letter b with dot above */
	{ 0x1E04, 0, "b" }, /* latin capital letter b with dot below */
	{ 0x1E05, 0, "b" }, /* latin small letter b with dot below */
	{ 0x1E06, 0, "b" }, /* latin capital letter b with line below */
	{ 0x1E07, 0, "b" }, /* latin small letter b with line below */
	{ 0x1E08, 0, "c" }, /* latin capital letter c with cedilla and acute */
	{ 0x1E09, 0, "c" }, /* latin small letter c with cedilla and acute */
	{ 0x1E0A, 0, "d" }, /* latin capital letter d with dot above */
	{ 0x1E0B, 0, "d" }, /* latin small letter d with dot above */
	{ 0x1E0C, 0, "d" }, /* latin capital letter d with dot below */
	{ 0x1E0D, 0, "d" }, /* latin small letter d with dot below */
	{ 0x1E0E, 0, "d" }, /* latin capital letter d with line below */
	{ 0x1E0F, 0, "d" }, /* latin small letter d with line below */
	{ 0x1E10, 0, "d" }, /* latin capital letter d with cedilla */
	{ 0x1E11, 0, "d" }, /* latin small letter d with cedilla */
	{ 0x1E12, 0, "d" }, /* latin capital letter d with circumflex below */
	{ 0x1E13, 0, "d" }, /* latin small letter d with circumflex below */
	{ 0x1E14, 0, "e" }, /* latin capital letter e with macron and grave */
	{ 0x1E15, 0, "e" }, /* latin small letter e with macron and grave */
	{ 0x1E16, 0, "e" }, /* latin capital letter e with macron and acute */
	{ 0x1E17, 0, "e" }, /* latin small letter e with macron and acute */
	{ 0x1E18, 0, "e" }, /* latin capital letter e with circumflex below */
	{ 0x1E19, 0, "e" }, /* latin small letter e with circumflex below */
	{ 0x1E1A, 0, "e" }, /* latin capital letter e with tilde below */
	{ 0x1E1B, 0, "e" }, /* latin small letter e with tilde below */
	{ 0x1E1C, 0, "e" }, /* latin capital letter e with cedilla and breve */
	{ 0x1E1D, 0, "e" }, /* latin small letter e with cedilla and breve */
	{ 0x1E1E, 0, "f" }, /* latin capital letter f with dot above */
	{ 0x1E1F, 0, "f" }, /* latin small letter f with dot above */
	{ 0x1E20, 0, "g" }, /* latin capital letter g with macron */
	{ 0x1E21, 0, "g" }, /* latin small letter g with macron */
	{ 0x1E22, 0, "h" }, /* latin capital letter h with dot above */
	{ 0x1E23, 0, "h" }, /* latin small letter h with dot above */
	{ 0x1E24, 0, "h" }, /* latin capital letter h with dot below */
	{ 0x1E25, 0, "h" }, /* latin small letter h with dot below */
	{ 0x1E26, 0, "h" }, /* latin capital letter h with diaeresis */
	{ 0x1E27, 0, "h" }, /* latin small letter h with diaeresis */
	{ 0x1E28, 0, "h" }, /* latin capital letter h with cedilla */
	{ 0x1E29, 0, "h" }, /* latin small letter h with cedilla */
	{ 0x1E2A, 0, "h" }, /* latin capital letter h with breve below */
	{ 0x1E2B, 0, "h" }, /* latin small letter h with breve below */
	{ 0x1E2C, 0, "i" }, /* latin capital letter i with tilde below */
	{ 0x1E2D, 0, "i" }, /* latin small letter i with tilde below */
	{ 0x1E2E, 0, "i" }, /* latin capital letter i with diaeresis and acute */
	{ 0x1E2F, 0, "i" }, /* latin small letter i with diaeresis and acute */
	{ 0x1E30, 0, "k" }, /* latin capital letter k with acute */
	{ 0x1E31, 0, "k" }, /* latin small letter k with acute */
	{ 0x1E32, 0, "k" }, /* latin capital letter k with dot below */
	{ 0x1E33, 0, "k" }, /* latin small letter k with dot below */
	{ 0x1E34, 0, "k" }, /* latin capital letter k with line below */
	{ 0x1E35, 0, "k" }, /* latin small letter k with line below */
	{ 0x1E36, 0, "l" }, /* latin capital letter l with dot below */
	{ 0x1E37, 0, "l" }, /* latin small letter l with dot below */
	{ 0x1E38, 0, "l" }, /* latin capital letter l with dot below and macron */
	{ 0x1E39, 0, "l" }, /* latin small letter l with dot below and macron */
	{ 0x1E3A, 0, "l" }, /* latin capital letter l with line below */
	{ 0x1E3B, 0, "l" }, /* latin small letter l with line below */
	{ 0x1E3C, 0, "l" }, /* latin capital letter l with circumflex below */
	{ 0x1E3D, 0, "l" }, /* latin small letter l with circumflex below */
	{ 0x1E3E, 0, "m" }, /* latin capital letter m with acute */
	{ 0x1E3F, 0, "m" }, /* latin small letter m with acute */
	{ 0x1E40, 0, "m" }, /* latin capital letter m with dot above */
	{ 0x1E41, 0, "m" }, /* latin small letter m with dot above */
	{ 0x1E42, 0, "m" }, /* latin capital letter m with dot below */
	{ 0x1E43, 0, "m" }, /* latin small letter m with dot below */
	{ 0x1E44, 0, "n" }, /* latin capital letter n with dot above */
	{ 0x1E45, 0, "n" }, /* latin small letter n with dot above */
	{ 0x1E46, 0, "n" }, /* latin capital letter n with dot below */
	{ 0x1E47, 0, "n" }, /* latin small letter n with dot below */
	{ 0x1E48, 0, "n" }, /* latin capital letter n with line below */
	{ 0x1E49, 0, "n" }, /* latin small letter n with line below */
	{ 0x1E4A, 0, "n" }, /* latin capital letter n with circumflex below */
	{ 0x1E4B, 0, "n" }, /* latin small letter n with circumflex below */
	{ 0x1E4C, 0, "o" }, /* latin capital letter o with tilde and acute */
	{ 0x1E4D, 0, "o" }, /* latin small letter o with tilde and acute */
	{ 0x1E4E, 0, "o" }, /* latin capital letter o with tilde and diaeresis */
	{ 0x1E4F, 0, "o" }, /* latin small letter o with tilde and diaeresis */
	{ 0x1E50, 0, "o" }, /* latin capital letter o with macron and grave */
	{ 0x1E51, 0, "o" }, /* latin small letter o with macron and grave */
	{ 0x1E52, 0, "o" }, /* latin capital letter o with macron and acute */
	{ 0x1E53, 0, "o" }, /* latin small letter o with macron and acute */
	{ 0x1E54, 0, "p" }, /* latin capital letter p with acute */
	{ 0x1E55, 0, "p" }, /* latin small letter p with acute */
	{ 0x1E56, 0, "p" }, /* latin capital letter p with dot above */
	{ 0x1E57, 0, "p" }, /* latin small letter p with dot above */
	{ 0x1E58, 0, "r" }, /* latin capital letter r with dot above */
	{ 0x1E59, 0, "r" }, /* latin small letter r with dot above */
	{ 0x1E5A, 0, "r" }, /* latin capital letter r with dot below */
	{ 0x1E5B, 0, "r" }, /* latin small letter r with dot below */
	{ 0x1E5C, 0, "r" }, /* latin capital letter r with dot below and macron */
	{ 0x1E5D, 0, "r" }, /* latin small letter r with dot below and macron */
	{ 0x1E5E, 0, "r" }, /* latin capital letter r with line below */
	{ 0x1E5F, 0, "r" }, /* latin small letter r with line below */
	{ 0x1E60, 0, "s" }, /* latin capital letter s with dot above */
	{ 0x1E61, 0, "s" }, /* latin small letter s with dot above */
	{ 0x1E62, 0, "s" }, /* latin capital letter s with dot below */
	{ 0x1E63, 0, "s" }, /* latin small letter s with dot below */
	{ 0x1E64, 0, "s" }, /* latin capital letter s with acute and dot above */
	{ 0x1E65, 0, "s" }, /* latin small letter s with acute and dot above */
	{ 0x1E66, 0, "s" }, /* latin capital letter s with caron and dot above */
	{ 0x1E67, 0, "s" }, /* latin small letter s with caron and dot above */
	{ 0x1E68, 0, "s" }, /* latin capital letter s with dot below and dot above */
	{ 0x1E69, 0, "s" }, /* latin small letter s with dot below and dot above */
	{ 0x1E6A, 0, "t" }, /* latin capital letter t with dot above */
	{ 0x1E6B, 0, "t" }, /* latin small letter t with dot above */
	{ 0x1E6C, 0, "t" }, /* latin capital letter t with dot below */
	{ 0x1E6D, 0, "t" }, /* latin small letter t with dot below */
	{ 0x1E6E, 0, "t" }, /* latin capital letter t with line below */
	{ 0x1E6F, 0, "t" }, /* latin small letter t with line below */
	{ 0x1E70, 0, "t" }, /* latin capital letter t with circumflex below */
	{ 0x1E71, 0, "t" }, /* latin small letter t with circumflex below */
	{ 0x1E72, 0, "u" }, /* latin capital letter u with diaeresis below */
	{ 0x1E73, 0, "u" }, /* latin small letter u with diaeresis below */
	{ 0x1E74, 0, "u" }, /* latin capital letter u with tilde below */
	{ 0x1E75, 0, "u" }, /* latin small letter u with tilde below */
	{ 0x1E76, 0, "u" }, /* latin capital letter u with circumflex below */
	{ 0x1E77, 0, "u" }, /* latin small letter u with circumflex below */
	{ 0x1E78, 0, "u" }, /* latin capital letter u with tilde and acute */
	{ 0x1E79, 0, "u" }, /* latin small letter u with tilde and acute */
	{ 0x1E7A, 0, "u" }, /* latin capital letter u with macron and diaeresis */
	{ 0x1E7B, 0, "u" }, /* latin small letter u with macron and diaeresis */
	{ 0x1E7C, 0, "v" }, /* latin capital letter v with tilde */
	{ 0x1E7D, 0, "v" }, /* latin small letter v with tilde */
	{ 0x1E7E, 0, "v" }, /* latin capital letter v with dot below */
	{ 0x1E7F, 0, "v" }, /* latin small letter v with dot below */
	{ 0x1E80, 0, "w" }, /* latin capital letter w with grave */
	{ 0x1E81, 0, "w" }, /* latin small letter w with grave */
	{ 0x1E82, 0, "w" }, /* latin capital letter w with acute */
	{ 0x1E83, 0, "w" }, /* latin small letter w with acute */
	{ 0x1E84, 0, "w" }, /* latin capital letter w with diaeresis */
	{ 0x1E85, 0, "w" }, /* latin small letter w with diaeresis */
	{ 0x1E86, 0, "w" }, /* latin capital letter w with dot above */
	{ 0x1E87, 0, "w" }, /* latin small letter w with dot above */
	{ 0x1E88, 0, "w" }, /* latin capital letter w with dot below */
	{ 0x1E89, 0, "w" }, /* latin small letter w with dot below */
	{ 0x1E8A, 0, "x" }, /* latin capital letter x with dot above */
	{ 0x1E8B, 0, "x" }, /* latin small letter x with dot above */
	{ 0x1E8C, 0, "x" }, /* latin capital letter x with diaeresis */
	{ 0x1E8D, 0, "x" }, /* latin small letter x with diaeresis */
	{ 0x1E8E, 0, "y" }, /* latin capital letter y with dot above */
	{ 0x1E8F, 0, "y" }, /* latin small letter y with dot above */
	{ 0x1E90, 0, "z" }, /* latin capital letter z with circumflex */
	{ 0x1E91, 0, "z" }, /* latin small letter z with circumflex */
	{ 0x1E92, 0, "z" }, /* latin capital letter z with dot below */
	{ 0x1E93, 0, "z" }, /* latin small letter z with dot below */
	{ 0x1E94, 0, "z" }, /* latin capital letter z with line below */
	{ 0x1E95, 0, "z" }, /* latin small letter z with line below */
	{ 0x1E96, 0, "h" }, /* latin small letter h with line below */
	{ 0x1E97, 0, "t" }, /* latin small letter t with diaeresis */
	{ 0x1E98, 0, "w" }, /* latin small letter w with ring above */
	{ 0x1E99, 0, "y" }, /* latin small letter y with ring above */
	{ 0x1E9B, 0, "s" }, /* latin small letter long s with dot above */
	{ 0x1E9E, 0, "ss" }, /* latin capital letter sharp s */
	{ 0x1EA0, 0, "a" }, /* latin capital letter a with dot below */
	{ 0x1EA1, 0, "a" }, /* latin small letter a with dot below */
	{ 0x1EA2, 0, "a" }, /* latin capital letter a with hook above */
	{ 0x1EA3, 0, "a" }, /* latin small letter a with hook above */
	{ 0x1EA4, 0, "a" }, /* latin capital letter a with circumflex and acute */
	{ 0x1EA5, 0, "a" }, /* latin small letter a with circumflex and acute */
	{ 0x1EA6, 0, "a" }, /* latin capital letter a with circumflex and grave */
	{ 0x1EA7, 0, "a" }, /* latin small letter a with circumflex and grave */
	{ 0x1EA8, 0, "a" }, /* latin capital letter a with circumflex and hook above */
	{ 0x1EA9, 0, "a" }, /* latin small letter a with circumflex and hook above */
	{ 0x1EAA, 0, "a" }, /* latin capital letter a with circumflex and tilde */
	{ 0x1EAB, 0, "a" }, /* latin small letter a with circumflex and tilde */
	{ 0x1EAC, 0, "a" }, /* latin capital letter a with circumflex and dot below */
	{ 0x1EAD, 0, "a" }, /* latin small letter a with circumflex and dot below */
	{ 0x1EAE, 0, "a" }, /* latin capital letter a with breve and acute */
	{ 0x1EAF, 0, "a" }, /* latin small letter a with breve and acute */
	{ 0x1EB0, 0, "a" }, /* latin capital letter a with breve and grave */
	{ 0x1EB1, 0, "a" }, /* latin small letter a with breve and grave */
	{ 0x1EB2, 0, "a" }, /* latin capital letter a with breve and hook above */
	{ 0x1EB3, 0, "a" }, /* latin small letter a with breve and hook above */
	{ 0x1EB4, 0, "a" }, /* latin capital letter a with breve and tilde */
	{ 0x1EB5, 0, "a" }, /* latin small letter a with breve and tilde */
	{ 0x1EB6, 0, "a" }, /* latin capital letter a with breve and dot below */
	{ 0x1EB7, 0, "a" }, /* latin small letter a with breve and dot below */
	{ 0x1EB8, 0, "e" }, /* latin capital letter e with dot below */
	{ 0x1EB9, 0, "e" }, /* latin small letter e with dot below */
	{ 0x1EBA, 0, "e" }, /* latin capital letter e with hook above */
	{ 0x1EBB, 0, "e" }, /* latin small letter e with hook above */
	{ 0x1EBC, 0, "e" }, /* latin capital letter e with tilde */
	{ 0x1EBD, 0, "e" }, /* latin small letter e with tilde */
	{ 0x1EBE, 0, "e" }, /* latin capital letter e with circumflex and acute */
	{ 0x1EBF, 0, "e" }, /* latin small letter e with circumflex and acute */
	{ 0x1EC0, 0, "e" }, /* latin capital letter e with circumflex and grave */
	{ 0x1EC1, 0, "e" }, /* latin small letter e with circumflex and grave */
	{ 0x1EC2, 0, "e" }, /* latin capital letter e with circumflex and hook above */
	{ 0x1EC3, 0, "e" }, /* latin small letter e with circumflex and hook above */
	{ 0x1EC4, 0, "e" }, /* latin capital letter e with circumflex and tilde */
	{ 0x1EC5, 0, "e" }, /* latin small letter e with circumflex and tilde */
	{ 0x1EC6, 0, "e" }, /* latin capital letter e with circumflex and dot below */
	{ 0x1EC7, 0, "e" }, /* latin small letter e with circumflex and dot below */
	{ 0x1EC8, 0, "i" }, /* latin capital letter i with hook above */
	{ 0x1EC9, 0, "i" }, /* latin small letter i with hook above */
	{ 0x1ECA, 0, "i" }, /* latin capital letter i with dot below */
	{ 0x1ECB, 0, "i" }, /* latin small letter i with dot below */
	{ 0x1ECC, 0, "o" }, /* latin capital letter o with dot below */
	{ 0x1ECD, 0, "o" }, /* latin small letter o with dot below */
	{ 0x1ECE, 0, "o" }, /* latin capital letter o with hook above */
	{ 0x1ECF, 0, "o" }, /* latin small letter o with hook above */
	{ 0x1ED0, 0, "o" }, /* latin capital letter o with circumflex and acute */
	{ 0x1ED1, 0, "o" }, /* latin small letter o with circumflex and acute */
	{ 0x1ED2, 0, "o" }, /* latin capital letter o with circumflex and grave */
	{ 0x1ED3, 0, "o" }, /* latin small letter o with circumflex and grave */
	{ 0x1ED4, 0, "o" }, /* latin capital letter o with circumflex and hook above */
	{ 0x1ED5, 0, "o" }, /* latin small letter o with circumflex and hook above */
	{ 0x1ED6, 0, "o" }, /* latin capital letter o with circumflex and tilde */
	{ 0x1ED7, 0, "o" }, /* latin small letter o with circumflex and tilde */
	{ 0x1ED8, 0, "o" }, /* latin capital letter o with circumflex and dot below */
	{ 0x1ED9, 0, "o" }, /* latin small letter o with circumflex and dot below */
	{ 0x1EDA, 0, "o" }, /* latin capital letter o with horn and acute */
	{ 0x1EDB, 0, "o" }, /* latin small letter o with horn and acute */
	{ 0x1EDC, 0, "o" }, /* latin capital letter o with horn and grave */
	{ 0x1EDD, 0, "o" }, /* latin small letter o with horn and grave */
	{ 0x1EDE, 0, "o" }, /* latin capital letter o with horn and hook above */
	{ 0x1EDF, 0, "o" }, /* latin small letter o with horn and hook above */
	{ 0x1EE0, 0, "o" }, /* latin capital letter o with horn and tilde */
	{ 0x1EE1, 0, "o" }, /* latin small letter o with horn and tilde */
	{ 0x1EE2, 0, "o" }, /* latin capital letter o with horn and dot below */
	{ 0x1EE3, 0, "o" }, /* latin small letter o with horn and dot below */
	{ 0x1EE4, 0, "u" }, /* latin capital letter u with dot below */
	{ 0x1EE5, 0, "u" }, /* latin small letter u with dot below */
	{ 0x1EE6, 0, "u" }, /* latin capital letter u with hook above */
	{ 0x1EE7, 0, "u" }, /* latin small letter u with hook above */
	{ 0x1EE8, 0, "u" }, /* latin capital letter u with horn and acute */
	{ 0x1EE9, 0, "u" }, /* latin small letter u with horn and acute */
	{ 0x1EEA, 0, "u" }, /* latin capital letter u with horn and grave */
	{ 0x1EEB, 0, "u" }, /* latin small letter u with horn and grave */
	{ 0x1EEC, 0, "u" }, /* latin capital letter u with horn and hook above */
	{ 0x1EED, 0, "u" }, /* latin small letter u with horn and hook above */
	{ 0x1EEE, 0, "u" }, /* latin capital letter u with horn and tilde */
	{ 0x1EEF, 0, "u" }, /* latin small letter u with horn and tilde */
	{ 0x1EF0, 0, "u" }, /* latin capital letter u with horn and dot below */
	{ 0x1EF1, 0, "u" }, /* latin small letter u with horn and dot below */
	{ 0x1EF2, 0, "y" }, /* latin capital letter y with grave */
	{ 0x1EF3, 0, "y" }, /* latin small letter y with grave */
	{ 0x1EF4, 0, "y" }, /* latin capital letter y with dot below */
	{ 0x1EF5, 0, "y" }, /* latin small letter y with dot below */
	{ 0x1EF6, 0, "y" }, /* latin capital letter y with hook above */
	{ 0x1EF7, 0, "y" }, /* latin small letter y with hook above */
	{ 0x1EF8, 0, "y" }, /* latin capital letter y with tilde */
	{ 0x1EF9, 0, "y" }, /* latin small letter y with tilde */
};
/* clang-format on */
