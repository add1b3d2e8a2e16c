// rules.js: the rules page of Super 1 al 5 in English, Spanish and Portuguese, written for people
// from protocol/games/super15/README.md (binding) and the Spanish seed text. The markup is the light one
// ../../rules.js draws.

const en = `# How to play Super 1 al 5

A capture game for two on a board of 8 by 10 squares. Every piece carries a number from 1 to 5 and collects
points by capturing, until it becomes a **Super**.

## The board and the pieces
- Files a to h, ranks 1 to 10. Light starts on ranks 1 and 2, Dark on ranks 9 and 10.
- The four central squares d5, e5, d6 and e6 are **forbidden**: no piece ever stops there, but pieces pass over them.
- Each side has sixteen pieces. Rank 1, files a to h: 5 4 3 2 2 3 4 5; rank 2: 1 2 3 1 1 3 2 1. Dark mirrors this.

## A turn
Light moves first; each turn moves exactly one piece, and passing is not allowed.
- A piece of value **v** moves along any of the 8 directions (like a queen), 1 to v squares.
- Every square it passes over must be empty (forbidden squares count as empty).
- It stops on an empty square that is not forbidden, or on an enemy piece, which it **captures**; the move ends there.

## Points and the Super
- For each piece it captures, a piece gains that piece's value **plus** that piece's points.
- A piece becomes **Super** when its points reach 10 or more, or when it captures a Super. It stays Super.
- A Super chooses a direction and looks along it up to the edge or its first own piece. If enemies lie on that
  line, it must capture **all** of them and stop on the farthest one. If none, it may stop on any empty square of
  the line that is not forbidden.

## The end
- A player left with one piece (or none) loses at once.
- After 20 moves without a capture, if both sides have the same number of pieces and at most three each, or
  after 100 moves without a capture in any case, the game ends: the side with more points on its pieces still on
  the board wins; equal points draw.
- A player may resign at any time; the other wins.
`;

const es = `# Cómo se juega Super 1 al 5

Un juego de capturas para dos en un tablero de 8 por 10 casilleros. Cada pieza lleva un número del 1 al 5 y
acumula puntos comiendo, hasta convertirse en **Súper**.

## El tablero y las piezas
- Columnas a a h, filas 1 a 10. Las claras empiezan en las filas 1 y 2, las oscuras en la 9 y la 10.
- Las cuatro casillas centrales d5, e5, d6 y e6 están **prohibidas**: ninguna pieza se detiene allí, pero se puede pasar por encima.
- Cada bando tiene dieciséis piezas. Fila 1, columnas a a h: 5 4 3 2 2 3 4 5; fila 2: 1 2 3 1 1 3 2 1. Las oscuras, en espejo.

## El turno
Empiezan las claras; en cada turno se mueve exactamente una pieza y no se puede pasar.
- Una pieza de valor **v** se mueve en cualquiera de las 8 direcciones (como una dama), de 1 a v casilleros.
- Todas las casillas por las que pasa deben estar vacías (las prohibidas cuentan como vacías).
- Se detiene en una casilla vacía no prohibida, o sobre una pieza enemiga, a la que **come**; ahí termina la jugada.

## Los puntos y la Súper
- Por cada pieza que come, una pieza suma el valor de esa pieza **más** sus puntos.
- Una pieza se convierte en **Súper** cuando llega a 10 puntos o más, o cuando come a una Súper. Lo es para siempre.
- Una Súper elige una dirección y mira hasta el borde o hasta su primera pieza propia. Si en esa línea hay
  enemigas, debe comerlas a **todas** y detenerse sobre la más lejana. Si no hay, puede detenerse en cualquier
  casilla vacía no prohibida de la línea.

## El final
- Pierde en el acto quien se queda con una pieza (o ninguna).
- Tras 20 jugadas sin comer, si ambos bandos tienen las mismas piezas y como mucho tres cada uno, o tras 100
  jugadas sin comer en cualquier caso, la partida termina: gana quien suma más puntos con sus piezas en el
  tablero; con los mismos puntos es empate.
- Se puede abandonar en cualquier momento; gana el otro.
`;

const pt = `# Como se joga Super 1 al 5

Um jogo de capturas para dois num tabuleiro de 8 por 10 casas. Cada peça tem um número de 1 a 5 e acumula
pontos a capturar, até se tornar **Super**.

## O tabuleiro e as peças
- Colunas a a h, filas 1 a 10. As claras começam nas filas 1 e 2, as escuras na 9 e na 10.
- As quatro casas centrais d5, e5, d6 e e6 são **proibidas**: nenhuma peça para lá, mas pode-se passar por cima.
- Cada lado tem dezasseis peças. Fila 1, colunas a a h: 5 4 3 2 2 3 4 5; fila 2: 1 2 3 1 1 3 2 1. As escuras, em espelho.

## A jogada
As claras começam; em cada vez move-se exatamente uma peça, e não se pode passar.
- Uma peça de valor **v** move-se em qualquer das 8 direções (como uma dama), de 1 a v casas.
- Todas as casas por onde passa têm de estar vazias (as proibidas contam como vazias).
- Para numa casa vazia não proibida, ou sobre uma peça inimiga, que **captura**; a jogada acaba aí.

## Os pontos e a Super
- Por cada peça que captura, uma peça ganha o valor dessa peça **mais** os pontos dela.
- Uma peça torna-se **Super** quando chega a 10 pontos ou mais, ou quando captura uma Super. Fica Super para sempre.
- Uma Super escolhe uma direção e olha até à borda ou até à primeira peça sua. Se nessa linha houver inimigas,
  tem de capturar **todas** e parar sobre a mais distante. Se não houver, pode parar em qualquer casa vazia não
  proibida da linha.

## O fim
- Perde logo quem fica com uma peça (ou nenhuma).
- Após 20 jogadas sem capturas, se ambos os lados tiverem o mesmo número de peças e no máximo três cada, ou após
  100 jogadas sem capturas em qualquer caso, o jogo acaba: ganha quem tem mais pontos nas peças que ainda estão
  no tabuleiro; com os mesmos pontos é empate.
- Pode-se desistir a qualquer momento; ganha o outro.
`;

export default { en, es, pt };
