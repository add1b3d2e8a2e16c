// rules.js: the rules page of Laquet in English, Spanish and Brazilian Portuguese, written for people from
// protocol/games/laquet/README.md (binding) and the Spanish seed text. The markup is the light one
// ../../rules.js draws. Points are named as on the board. `example` is the worked turn's position: the moves
// that lead to it from the start (a throw names its dice), drawn where the text says {example}.

const en = `# How to play Laquet

A race game for two from the Libro de los juegos of Alfonso X (1283), played on a backgammon board with one
quarter left out. Each side has fifteen men; the first to bear all fifteen off wins. Men are never hit.

## The board and the track
The bottom row is b1..b12 and the top row t1..t12, left to right; White sits at the bottom. The bottom-left
quarter (**b1..b6**) is never used. Both sides move the **same way**: along the bottom from **b7 to b12**, up to
the top, then along the top from **t12 to t1**, and off the board after t1.

## The setup
- White: 2 men on b7, 3 on each of b8, b9, b10 and b11, and 1 on t1.
- Black: 14 men on b12 and 1 on t12.

## A turn
White rolls first. Roll two dice, then play them: each die moves one man forward by its value.
- A man may **never land on a point that holds any opponent man**, even a single one.
- One man may take both dice; the point in between must be open too.
- **Doubles are not doubled**: a turn has at most two moves.
- You must use **as many dice as you can**; if only one can be used, the **larger** one when it can be.
- If nothing can be played, the turn passes by itself.

## A turn, worked through
{example}
White rolls **5 and 1**. The 5 cannot move a man from b7 or b8: it would land on b12 or t12, and both hold Black
men. It can from b9, b10 or b11; White takes a man from **b9 up to t11**. The 1 moves a man from **b7 to b8**.
Both dice are used, so none is handed to Black, who now rolls.

## Handed dice
The dice your move does not use go to your opponent. Before its own roll, the opponent may play any of them with
its own men, in any order, or decline them. They are offered only if at least one can be played; the ones not
played are lost. Then the opponent rolls as usual.

## Bearing off
- Only once all your men still on the board stand on **t6..t1**.
- A die bears off a man from the point that many steps before the rail: a 1 from t1, a 6 from t6.
- A die larger than your farthest man needs bears that man off.
- Men on t6..t1 may also move forward normally.

## Winning
The first to bear off all fifteen men wins.
`;

const es = `# Cómo se juega al laquet

Juego de carrera para dos del Libro de los juegos de Alfonso X (1283), sobre un tablero de backgammon con un
cuadrante sin usar. Cada bando tiene quince fichas; gana quien saca antes las quince. Las fichas nunca se comen.

## El tablero y el recorrido
La fila de abajo es b1..b12 y la de arriba t1..t12, de izquierda a derecha; las blancas se sientan abajo. El
cuadrante de abajo a la izquierda (**b1..b6**) no se usa nunca. Los dos bandos van en el **mismo sentido**: por
abajo de **b7 a b12**, suben, y por arriba de **t12 a t1**, y salen del tablero después de t1.

## Posición inicial
- Blancas: 2 fichas en b7, 3 en cada uno de b8, b9, b10 y b11, y 1 en t1.
- Negras: 14 fichas en b12 y 1 en t12.

## El turno
Tiran primero las blancas. Se tiran dos dados y se juegan: cada dado avanza una ficha tantos puntos como marca.
- Una ficha **no puede caer nunca en un punto con fichas del rival**, aunque sea una sola.
- Una ficha puede llevar los dos dados; el punto intermedio también debe estar libre.
- **Las parejas no valen doble**: como mucho dos movimientos por turno.
- Hay que usar **tantos dados como se pueda**; si solo se puede usar uno, el **mayor** cuando se pueda.
- Si no se puede jugar nada, el turno pasa solo.

## Un turno, paso a paso
{example}
Las blancas sacan **5 y 1**. El 5 no puede mover una ficha de b7 ni de b8: caería en b12 o en t12, y en los dos hay
fichas negras. Sí puede desde b9, b10 o b11; las blancas llevan una ficha **de b9 a t11**. El 1 mueve una ficha
**de b7 a b8**. Se usan los dos dados, así que no se cede ninguno a las negras, que ahora tiran.

## Dados cedidos
Los dados que tu jugada no usa pasan al rival. Antes de su propia tirada, el rival puede jugar los que quiera con
sus fichas, en cualquier orden, o rechazarlos. Solo se ofrecen si al menos uno se puede jugar; los que no juega se
pierden. Luego el rival tira como siempre.

## Sacar fichas
- Solo cuando todas tus fichas que quedan en el tablero están en **t6..t1**.
- Un dado saca una ficha del punto que está a ese número de pasos de la salida: un 1 desde t1, un 6 desde t6.
- Un dado mayor de lo que necesita tu ficha más atrasada saca esa ficha.
- Las fichas en t6..t1 también pueden avanzar normalmente.

## Quién gana
Gana el primero que saca sus quince fichas.
`;

const pt = `# Como se joga o laquet

Jogo de corrida para dois do Libro de los juegos de Afonso X (1283), num tabuleiro de gamão com um quadrante sem
uso. Cada lado tem quinze peças; ganha quem tirar primeiro as quinze. As peças nunca são capturadas.

## O tabuleiro e o percurso
A fileira de baixo é b1..b12 e a de cima t1..t12, da esquerda para a direita; as brancas ficam embaixo. O quadrante
de baixo à esquerda (**b1..b6**) nunca é usado. Os dois lados andam no **mesmo sentido**: por baixo de **b7 a b12**,
sobem e vão por cima de **t12 a t1**, e saem do tabuleiro depois de t1.

## Posição inicial
- Brancas: 2 peças em b7, 3 em cada um de b8, b9, b10 e b11, e 1 em t1.
- Pretas: 14 peças em b12 e 1 em t12.

## Um turno
As brancas jogam primeiro. Jogue os dois dados e use-os: cada dado faz uma peça andar tantos pontos quanto marca.
- Uma peça **nunca pode cair num ponto com peças do adversário**, mesmo que seja uma só.
- Uma peça pode usar os dois dados; o ponto do meio também precisa estar livre.
- **Os pares não valem em dobro**: no máximo dois movimentos por turno.
- É preciso usar **tantos dados quanto possível**; se só um puder ser usado, o **maior**, quando der.
- Se nada puder ser jogado, o turno passa sozinho.

## Um turno, passo a passo
{example}
As brancas tiram **5 e 1**. O 5 não pode mover uma peça de b7 nem de b8: ela cairia em b12 ou em t12, e nos dois
há peças pretas. De b9, b10 ou b11 pode; as brancas levam uma peça **de b9 até t11**. O 1 move uma peça **de b7
para b8**. Os dois dados são usados, então nenhum é cedido às pretas, que agora jogam.

## Dados cedidos
Os dados que a sua jogada não usa passam ao adversário. Antes de jogar os próprios dados, o adversário pode usar os
que quiser com as peças dele, em qualquer ordem, ou recusá-los. Eles só são oferecidos se pelo menos um puder ser
jogado; os que ele não usa se perdem. Depois o adversário joga os dados como sempre.

## Tirar peças
- Só quando todas as suas peças que ainda estão no tabuleiro estiverem em **t6..t1**.
- Um dado tira uma peça do ponto que fica a esse número de passos da saída: um 1 tira de t1, um 6 de t6.
- Um dado maior do que precisa a sua peça mais atrasada tira essa peça.
- As peças em t6..t1 também podem andar normalmente.

## Quem ganha
Ganha o primeiro que tirar as suas quinze peças.
`;

// The worked turn: White rolls 5 and 1 and plays b9 → t11 and b7 → b8 (routes 3 and 1: b7 is route 1).
const example = {
  seat: 0,
  moves: [{ seat: 0, action: { roll: true }, dice: [5, 1] }, { seat: 0, action: { plan: [{ from: 3, die: 0 }, { from: 1, die: 1 }] } }],
};

export default { en, es, pt, example };
