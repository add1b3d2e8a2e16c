// rules.js: the rules page of Super 1 al 5 in English, Spanish and Brazilian Portuguese, written for people
// from protocol/games/super15/README.md (binding) and the Spanish seed text. The markup is the light one
// ../../rules.js draws. `example` is the worked turn's position: the moves that lead to it from the start,
// drawn where the text says {example}.

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

## A turn, worked through
{example}
Light has moved its 3 from c2 to c5 (three squares straight up, all empty), and Dark has answered with its own 3,
from c9 to c6. Now Light's 3 on c5 moves **one square up**, onto c6, and **captures** Dark's 3: the move ends there
and Light's piece gains **3 points**, the captured piece's value 3 plus the 0 points it had. With 7 more it will be
a Super.

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

Un juego de capturas para dos en un tablero de 8 por 10 casillas. Cada pieza lleva un número del 1 al 5 y
acumula puntos comiendo, hasta convertirse en **Súper**.

## El tablero y las piezas
- Columnas de la a a la h, filas de la 1 a la 10. Las claras empiezan en las filas 1 y 2, las oscuras en la 9 y la 10.
- Las cuatro casillas centrales d5, e5, d6 y e6 están **prohibidas**: ninguna pieza se detiene allí, pero se puede pasar por encima.
- Cada bando tiene dieciséis piezas. Fila 1, de la columna a a la h: 5 4 3 2 2 3 4 5; fila 2: 1 2 3 1 1 3 2 1. Las oscuras, en espejo.

## El turno
Empiezan las claras; en cada turno se mueve exactamente una pieza y no se puede pasar.
- Una pieza de valor **v** se mueve en cualquiera de las 8 direcciones (como una dama), de 1 a v casillas.
- Todas las casillas por las que pasa deben estar vacías (las prohibidas cuentan como vacías).
- Se detiene en una casilla vacía no prohibida, o sobre una pieza enemiga, a la que **come**; ahí termina la jugada.

## Un turno, paso a paso
{example}
Las claras han movido su 3 de c2 a c5 (tres casillas en línea recta, todas vacías), y las oscuras han respondido
con su propio 3, de c9 a c6. Ahora el 3 claro de c5 avanza **una casilla**, hasta c6, y **come** el 3 oscuro: la
jugada termina ahí y la pieza clara suma **3 puntos**, el valor 3 de la pieza comida más los 0 puntos que tenía. Con
7 más será una Súper.

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

Um jogo de capturas para dois num tabuleiro de 8 por 10 casas. Cada peça tem um número de 1 a 5 e acumula pontos
capturando, até virar **Super**.

## O tabuleiro e as peças
- Colunas de a até h, fileiras de 1 a 10. As claras começam nas fileiras 1 e 2, as escuras na 9 e na 10.
- As quatro casas centrais d5, e5, d6 e e6 são **proibidas**: nenhuma peça para nelas, mas dá para passar por cima.
- Cada lado tem dezesseis peças. Fileira 1, da coluna a até a h: 5 4 3 2 2 3 4 5; fileira 2: 1 2 3 1 1 3 2 1. As escuras, espelhadas.

## Um turno
As claras começam; a cada turno você move exatamente uma peça, e não pode passar a vez.
- Uma peça de valor **v** anda em qualquer uma das 8 direções (como uma dama), de 1 a v casas.
- Todas as casas por onde ela passa precisam estar vazias (as proibidas contam como vazias).
- Ela para numa casa vazia não proibida, ou sobre uma peça inimiga, que ela **captura**; a jogada termina ali.

## Um turno, passo a passo
{example}
As claras moveram o seu 3 de c2 para c5 (três casas em linha reta, todas vazias), e as escuras responderam com o
seu 3, de c9 para c6. Agora o 3 claro de c5 anda **uma casa**, até c6, e **captura** o 3 escuro: a jogada termina
ali e a peça clara ganha **3 pontos**, o valor 3 da peça capturada mais os 0 pontos que ela tinha. Com mais 7 ela
vira Super.

## Os pontos e a Super
- Para cada peça que captura, uma peça ganha o valor dessa peça **mais** os pontos dela.
- Uma peça vira **Super** quando chega a 10 pontos ou mais, ou quando captura uma Super. Ela continua Super para
  sempre.
- Uma Super escolhe uma direção e olha até a borda ou até a primeira peça sua. Se nessa linha houver inimigas, ela
  precisa capturar **todas** e parar sobre a mais distante. Se não houver, pode parar em qualquer casa vazia não
  proibida da linha.

## O fim
- Quem fica com uma peça (ou nenhuma) perde na hora.
- Depois de 20 jogadas sem captura, se os dois lados tiverem o mesmo número de peças e no máximo três cada um, ou
  depois de 100 jogadas sem captura em qualquer caso, o jogo termina: ganha quem tem mais pontos nas peças que
  ainda estão no tabuleiro; com os mesmos pontos, é empate.
- Dá para desistir a qualquer momento; o outro ganha.
`;

// The worked turn: Light's 3 c2 → c5, Dark's 3 c9 → c6, and Light's 3 captures it on c6.
const example = {
  seat: 0,
  moves: [{ seat: 0, action: { from: 'c2', to: 'c5' } }, { seat: 1, action: { from: 'c9', to: 'c6' } },
    { seat: 0, action: { from: 'c5', to: 'c6' } }],
};

export default { en, es, pt, example };
