// rules.js: the rules page of the Royal Game of Ur in English, Spanish and Brazilian Portuguese, written
// for people from protocol/games/ur/README.md (binding) and the Spanish seed text. The markup is the
// light one ../../rules.js draws. Cells are named as on the board. `example` is the worked turn's
// position: the moves that lead to it from the start (a throw names its dice), drawn where the text
// says {example}.

const en = `# How to play the Royal Game of Ur

A race game for two, played in Mesopotamia more than 4,000 years ago. Each player has seven pieces; the first to
take all seven round their route and off the board wins.

## The board
Twenty cells in three rows: **L** (Light's outer row), **M** (the middle row, shared) and **K** (Dark's outer row),
numbered 1 to 8 from the exit end. Five cells carry a **rosette**: L1, K1, M4, L7 and K7.

## The dice
Three four-sided dice, each with two marked tips. Throw them and count the marked tips that point up:

| marked tips up | you move | then |
| --- | --- | --- |
| 3 | 5 | throw again |
| 0 | 4 | throw again |
| 2 | 1 | the turn passes |
| 1 | 0 | the turn passes |

## The route
Your pieces enter on your own outer row and run from cell 4 to cell 1 (squares 1 to 4), up the middle row from
M1 to M7, round the far end through the other side's cells 7 and 8 to M8, then through your own cells 8 and 7
and back down the middle row from M7 to M1. At M8 (square 14) a piece is **flipped**: from there it travels back
down (the board shows it with a ring and ↩). M1 is the exit square.

## A turn
- Throw, then make **one** action with the value, if you can; if nothing is possible the throw is lost.
- **Enter**: with a 1 a waiting piece enters on your square 1; with a 5 it enters on square 5 (M1).
- **Move**: a piece moves forward exactly the value. It may not go past the exit square.
- **Bear off**: with a 4, every piece of yours on the exit square M1 leaves the board at once.
- After a 4 or a 5 you throw again, even if the throw was lost.

## A turn, worked through
{example}
Light throws first: all three marked tips point up, so the throw is worth **5**. No piece is on the board yet,
and a 5 lets a waiting piece **enter on square 5**, the middle row's M1 (a safe cell). A 5 also means Light
**throws again**: two marked tips up this time, a **1**. Light could enter another piece on square 1 (L4) or move
the piece on M1 one cell on; it moves it to **M2**. A 1 does not throw again, so the turn passes to Dark.

## Landing
- Your own pieces may share a cell.
- Landing on a cell held by opponent pieces **travelling the same way** sends them all back to wait; pieces
  travelling the other way are not touched and share the cell.
- **Safe cells**: the five rosettes and M1. Nobody is captured there.
- **Rosette bonus**: ending a move or an entry on a rosette lets you enter one more piece on square 1 at once,
  or skip it, if you still have a piece waiting.

## Winning
The first player to bear off all seven pieces wins. Resigning, or abandoning the match, gives the win to the other
side.

## In this client
- Click (or tap) a glowing piece, then the cell where it lands; entries and bearing off are one click on the
  badge under the board or on the buttons.
- The option "Roll the dice for me" throws for you whenever throwing is your only choice; when only one move is
  possible the client says so and plays it (you can turn that off in the room).
- Pointing at a glowing piece, or moving focus to it with the arrow keys, marks where it would land and which
  pieces it would capture; your browser works that out with the same rules as the server, which still decides.
- The log names cells as the board does; click an entry to see it on the board.
`;

const es = `# Cómo se juega al Juego Real de Ur

Un juego de carreras para dos, jugado en Mesopotamia hace más de 4.000 años. Cada jugador tiene siete fichas; gana
quien antes consiga hacer el recorrido completo con las siete y sacarlas del tablero.

## El tablero
Veinte casillas en tres filas: **L** (la fila exterior de las claras), **M** (la fila central, compartida) y **K**
(la fila exterior de las oscuras), numeradas del 1 al 8 desde el extremo de salida. Cinco casillas llevan un
**rosetón**: L1, K1, M4, L7 y K7.

## Los dados
Tres dados piramidales (tetraedros), cada uno con dos vértices marcados. Se tiran y se cuentan los vértices
marcados que quedan hacia arriba:

| vértices marcados arriba | puntos | después |
| --- | --- | --- |
| 3 | 5 | vuelves a tirar |
| 0 | 4 | vuelves a tirar |
| 2 | 1 | el turno pasa al rival |
| 1 | 0 | el turno pasa al rival |

## El recorrido
Tus fichas entran por tu fila exterior y avanzan de la casilla 4 a la 1 (puntos 1 a 4), suben por la fila central
de M1 a M7, rodean el extremo por las casillas 7 y 8 del rival hasta M8, pasan por tus casillas 8 y 7 y bajan otra
vez por la fila central de M7 a M1. En M8 (la casilla 14) la ficha **se voltea**: desde allí va de bajada (el
tablero la muestra con un anillo y ↩). M1 es la casilla de salida.

## Un turno
- Tira y haz **una** jugada con los puntos, si puedes; si no hay ninguna posible, la tirada se pierde.
- **Entrar**: con un 1 una ficha que espera entra en tu casilla 1; con un 5, en la casilla 5 (M1).
- **Mover**: una ficha avanza exactamente los puntos. No puede pasar de la casilla de salida.
- **Sacar**: con un 4, todas tus fichas que estén en la casilla de salida M1 salen del tablero a la vez.
- Tras un 4 o un 5 vuelves a tirar, aunque la tirada se haya perdido.

## Un turno, paso a paso
{example}
Tiran primero las claras: los tres vértices marcados quedan hacia arriba, así que la tirada vale **5**. Aún no hay
ninguna ficha en el tablero, y un 5 deja **entrar** una ficha que espera **en la casilla 5**, la M1 de la fila
central (una casilla segura). Un 5 también significa que las claras **vuelven a tirar**: esta vez dos vértices
marcados hacia arriba, un **1**. Las claras podrían meter otra ficha en la casilla 1 (L4) o avanzar una casilla la
ficha de M1; la llevan a **M2**. Con un 1 no se vuelve a tirar, así que el turno pasa a las oscuras.

## Al caer en una casilla
- Tus fichas pueden compartir casilla.
- Caer en una casilla con fichas del rival **que van en tu misma dirección** las devuelve todas a la espera; las
  que van en la dirección contraria no se tocan y comparten la casilla.
- **Casillas seguras**: los cinco rosetones y M1. Ahí nadie es capturado.
- **Bonificación del rosetón**: si una jugada o una entrada termina en un rosetón, puedes meter en el acto otra
  ficha en la casilla 1, o renunciar, si aún te queda alguna esperando.

## Cómo se gana
Gana quien primero saca sus siete fichas. Abandonar, o dejar la partida, da la victoria al rival.

## En este cliente
- Pulsa una ficha que brilla y luego la casilla donde cae; entrar y sacar son un solo clic en la insignia bajo el
  tablero o en los botones.
- La opción «Tirar los dados por mí» tira por ti cuando tirar es lo único que puedes hacer; cuando solo hay una
  jugada posible, el cliente la anuncia y la juega (puedes desactivarlo en la sala).
- Al señalar una ficha que brilla, o llevarle el foco con las flechas, se marca dónde caería y qué fichas
  capturaría; tu navegador lo calcula con las mismas reglas que el servidor, que sigue siendo quien decide.
- El registro nombra las casillas como el tablero; pulsa una entrada para verla en el tablero.
`;

const pt = `# Como se joga o Jogo Real de Ur

Um jogo de corrida para dois, jogado na Mesopotâmia há mais de 4.000 anos. Cada jogador tem sete peças; ganha quem
primeiro levar as sete por todo o seu percurso e tirá-las do tabuleiro.

## O tabuleiro
Vinte casas em três fileiras: **L** (a fileira externa das claras), **M** (a fileira do meio, compartilhada) e **K**
(a fileira externa das escuras), numeradas de 1 a 8 a partir do lado da saída. Cinco casas têm uma **roseta**: L1,
K1, M4, L7 e K7.

## Os dados
Três dados piramidais (tetraedros), cada um com duas pontas marcadas. Jogue-os e conte as pontas marcadas que
ficam para cima:

| pontas marcadas para cima | você anda | depois |
| --- | --- | --- |
| 3 | 5 | joga de novo |
| 0 | 4 | joga de novo |
| 2 | 1 | a vez passa ao adversário |
| 1 | 0 | a vez passa ao adversário |

## O percurso
As suas peças entram pela sua fileira externa e andam da casa 4 à 1 (pontos 1 a 4), sobem pela fileira do meio de
M1 a M7, contornam o fundo pelas casas 7 e 8 do adversário até M8, passam pelas suas casas 8 e 7 e descem de novo
pela fileira do meio de M7 a M1. Em M8 (a casa 14) a peça **é virada**: a partir dali ela desce (o tabuleiro a
mostra com um anel e ↩). M1 é a casa de saída.

## Um turno
- Jogue os dados e faça **uma** jogada com os pontos, se puder; se nenhuma for possível, a jogada se perde.
- **Entrar**: com um 1, uma peça que espera entra na sua casa 1; com um 5, na casa 5 (M1).
- **Mover**: uma peça anda exatamente os pontos. Ela não pode passar da casa de saída.
- **Tirar**: com um 4, todas as suas peças na casa de saída M1 saem do tabuleiro de uma vez.
- Depois de um 4 ou de um 5 você joga de novo, mesmo que a jogada tenha se perdido.

## Um turno, passo a passo
{example}
As claras jogam primeiro: as três pontas marcadas ficam para cima, então a jogada vale **5**. Ainda não há
nenhuma peça no tabuleiro, e um 5 deixa uma peça que espera **entrar na casa 5**, a M1 da fileira do meio (uma
casa segura). Um 5 também quer dizer que as claras **jogam de novo**: desta vez duas pontas marcadas para cima, um
**1**. As claras poderiam colocar outra peça na casa 1 (L4) ou andar uma casa com a peça de M1; elas a levam para
**M2**. Com um 1 não se joga de novo, então a vez passa às escuras.

## Ao cair numa casa
- As suas peças podem dividir uma casa.
- Cair numa casa com peças do adversário **que andam no mesmo sentido** manda todas de volta para a espera; as
  que andam no sentido contrário ficam e dividem a casa.
- **Casas seguras**: as cinco rosetas e M1. Ali ninguém é capturado.
- **Bônus da roseta**: se uma jogada ou uma entrada termina numa roseta, você pode colocar na hora mais uma peça na
  casa 1, ou dispensar, se ainda tiver alguma esperando.

## Como se ganha
Ganha quem tirar primeiro as sete peças. Desistir, ou abandonar a partida, dá a vitória ao adversário.

## Neste cliente
- Toque (ou clique) numa peça que brilha e depois na casa onde ela cai; entrar e tirar são um só toque no selo
  embaixo do tabuleiro ou nos botões.
- A opção de jogar os dados por você faz isso sempre que jogar os dados é a sua única opção; quando só há uma
  jogada possível, o cliente a anuncia e a faz (você pode desligar isso na sala).
- Ao apontar para uma peça que brilha, ou levar o foco até ela com as setas, o tabuleiro marca onde ela cairia e
  que peças capturaria; o seu navegador calcula isso com as mesmas regras do servidor, que continua decidindo.
- O histórico dá às casas os nomes do tabuleiro; toque numa entrada para vê-la no tabuleiro.
`;

// The worked turn: Light throws a 5 (three marked tips up), enters on square 5 (M1), throws a 1 (two) and
// moves that piece to M2.
const example = {
  seat: 0,
  moves: [{ seat: 0, action: { roll: true }, dice: [true, true, true] }, { seat: 0, action: { enter: 5 } },
    { seat: 0, action: { roll: true }, dice: [true, true, false] }, { seat: 0, action: { move: 5 } }],
};

export default { en, es, pt, example };
